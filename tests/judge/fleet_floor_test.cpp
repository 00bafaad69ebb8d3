// The fleet's floor from the expectation layers: an absolute rule is its figure times its
// fail_below, a share rule its share times fail_below (what a verdict would FAIL), the rule's
// one line names both; no rule for "fleet" at the size is no floor.
#include <gtest/gtest.h>

#include "judge/fleet_floor.hpp"

namespace xb {
namespace {

ExpectationLayers site_rules(const std::string& rules) {
  ExpectationLayers layers;
  layers.site = parse_expectations("schema: xferbench.expectations\nschema_version: 1\nrules:\n" + rules, "site.yaml",
                                   ExpectLayer::site);
  return layers;
}

TEST(FleetFloor, AnAbsoluteRuleIsItsFigureTimesItsFailLevel) {
  const FleetFloorTerms t =
      fleet_floor(site_rules("  - {path: fleet, expect: '20 GB/s', warn_below: 0.9, fail_below: 0.5}\n"), 1 << 20, "");
  ASSERT_TRUE(t.gbps);
  EXPECT_DOUBLE_EQ(*t.gbps, 10.0);
  EXPECT_FALSE(t.share);
  EXPECT_NE(t.rule.find("FAIL below 0.5"), std::string::npos) << t.rule;
}

TEST(FleetFloor, AShareRuleIsItsShareTimesItsFailLevel) {
  const FleetFloorTerms t = fleet_floor(
      site_rules("  - {path: fleet, ceiling_fraction: 0.8, warn_below: 0.9, fail_below: 0.5}\n"), 1 << 20, "");
  ASSERT_TRUE(t.share);
  EXPECT_DOUBLE_EQ(*t.share, 0.4);
  EXPECT_FALSE(t.gbps);
}

TEST(FleetFloor, NoRuleForTheFleetAtTheSizeIsNoFloor) {
  const FleetFloorTerms t =
      fleet_floor(site_rules("  - {path: fleet, expect: '20 GB/s', min_block: 4M}\n  - {path: link, expect: '1 GB/s'}\n"),
                  1 << 20, "");
  EXPECT_FALSE(t.gbps);
  EXPECT_FALSE(t.share);
  EXPECT_EQ(t.rule, "");
}

}  // namespace
}  // namespace xb
