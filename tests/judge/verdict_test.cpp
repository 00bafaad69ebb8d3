// Verdicts: the thresholds, the deciding layer carried into the case, a trained-low link turning a
// PASS into a WARN, unjudged cases saying why, and the verdict through the result's JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "judge/verdict.hpp"

namespace xb {
namespace {

CaseResult bandwidth_case(double gib_per_s) {
  CaseResult c;
  c.job = "copy";
  c.name = "h2d";
  c.metrics.push_back({"bandwidth", gib_per_s, "GiB/s", "bytes / time"});
  return c;
}

ExpectationLayers with_rule(const std::string& rule) {
  ExpectationLayers l;
  l.builtin = builtin_expectations();
  l.command_line.push_back(parse_expectation_rule(rule, "--expect-rule", 1));
  return l;
}

const FigureFacts kH2d{"copy.h2d", "bandwidth", "dev", "", 1 << 20, std::nullopt, ""};

TEST(Verdict, ThresholdsAreTheRules) {
  ExpectRule r;
  r.warn_below = 1.0;
  r.fail_below = 0.8;
  EXPECT_EQ(verdict_for_ratio(1.0, r), "PASS");
  EXPECT_EQ(verdict_for_ratio(0.99, r), "WARN");
  EXPECT_EQ(verdict_for_ratio(0.8, r), "WARN");
  EXPECT_EQ(verdict_for_ratio(0.79, r), "FAIL");
  r.warn_below = 0.9;
  EXPECT_EQ(verdict_for_ratio(0.95, r), "PASS");
}

TEST(Verdict, AnAbsoluteRuleJudgesInTheMetricsUnit) {
  const auto layers = with_rule("copy.h2d=8 GiB/s");
  const CaseVerdict v = judge_figure(bandwidth_case(10), kH2d, Ceiling{}, layers);
  EXPECT_EQ(v.verdict, "PASS");
  EXPECT_EQ(v.unit, "GiB/s");
  EXPECT_DOUBLE_EQ(v.actual, 10);
  EXPECT_DOUBLE_EQ(*v.expected, 8);
  EXPECT_DOUBLE_EQ(*v.ratio, 1.25);
  EXPECT_EQ(v.layer, "command line");
  EXPECT_EQ(v.origin, "--expect-rule 1");
  EXPECT_EQ(v.rule, "copy.h2d bandwidth ≥ 8 GiB/s");
  EXPECT_EQ(judge_figure(bandwidth_case(7), kH2d, Ceiling{}, layers).verdict, "WARN");
  EXPECT_EQ(judge_figure(bandwidth_case(6), kH2d, Ceiling{}, layers).verdict, "FAIL");
}

TEST(Verdict, TheBuiltInShareOfAKnownCeiling) {
  ExpectationLayers layers;
  layers.builtin = builtin_expectations();
  Ceiling ceiling;
  ceiling.bytes_per_second = 31.5e9;
  ceiling.derivation = "PCIe Gen4 x16";
  const CaseVerdict v = judge_figure(bandwidth_case(10), kH2d, ceiling, layers);
  EXPECT_DOUBLE_EQ(*v.ceiling, 31.5e9 / (1u << 30));
  EXPECT_DOUBLE_EQ(*v.expected, 0.8 * 31.5e9 / (1u << 30));
  EXPECT_EQ(v.verdict, "FAIL");  // 10 GiB/s of an expected 23.5: below 0.8 of it
  EXPECT_EQ(v.layer, "built-in");
  EXPECT_EQ(v.ceiling_derivation, "PCIe Gen4 x16");
}

TEST(Verdict, ALinkTrainedLowMakesAPassAWarn) {
  const auto layers = with_rule("copy.h2d=1 GiB/s");
  Ceiling ceiling;
  ceiling.warnings.push_back("PCIe link a ↔ b runs at Gen4 x8 but both its ends can run Gen4 x16");
  const CaseVerdict v = judge_figure(bandwidth_case(10), kH2d, ceiling, layers);
  EXPECT_EQ(v.verdict, "WARN");
  EXPECT_EQ(v.warnings, ceiling.warnings);
}

TEST(Verdict, UnjudgedSaysWhy) {
  ExpectationLayers layers;
  layers.builtin = builtin_expectations();
  Ceiling unknown;
  unknown.derivation = "cpu::device::0 (cpu arena 0) has no PCI link";
  CaseVerdict v = judge_figure(bandwidth_case(10), kH2d, unknown, layers);
  EXPECT_EQ(v.verdict, "unjudged");
  EXPECT_FALSE(v.expected);
  EXPECT_EQ(v.ceiling_derivation, unknown.derivation);
  EXPECT_EQ(v.reason, "no rule with a figure applies to copy.h2d bandwidth, and its ceiling is unknown");
  Ceiling known;
  known.bytes_per_second = 31.5e9;
  FigureFacts small = kH2d;
  small.block_bytes = 4096;
  ExpectationLayers from_1m;
  from_1m.site = parse_expectations("schema: xferbench.expectations\nschema_version: 1\nrules:\n"
                                    "  - {path: copy.h2d, ceiling_fraction: 0.9, min_block: 1M}\n", "site.yaml",
                                    ExpectLayer::site);
  v = judge_figure(bandwidth_case(10), small, known, from_1m);
  EXPECT_EQ(v.verdict, "unjudged");
  EXPECT_EQ(v.reason, "no rule applies to copy.h2d bandwidth at 4096 B blocks");
  small.block_bytes = 1 << 20;
  EXPECT_EQ(judge_figure(bandwidth_case(10), small, known, from_1m).verdict, "FAIL");  // 10 GiB/s of 28.35 GB/s
  CaseResult waived = bandwidth_case(0);
  waived.status = CaseStatus::waived;
  waived.status_reason = "no GPU";
  v = judge_figure(waived, kH2d, unknown, layers);
  EXPECT_EQ(v.verdict, "unjudged");
  EXPECT_EQ(v.reason, "the case has no figure (waived: no GPU)");
  CaseResult latency = bandwidth_case(1);
  latency.metrics[0].unit = "us";
  v = judge_figure(latency, kH2d, unknown, layers);
  EXPECT_EQ(v.reason, "bandwidth is in us, not a bandwidth: only bandwidths are judged");
}

TEST(Verdict, AMachineTheSkuFileDoesNotKnowHasNoSkuLayerAndSaysSo) {
  auto layers = with_rule("copy.h2d=8 GiB/s");
  layers.sku = sku_expectations();  // the shipped file: accelerators and servers, not "dev"
  const CaseVerdict unknown = judge_figure(bandwidth_case(10), kH2d, Ceiling{}, layers);
  EXPECT_EQ(unknown.verdict, "PASS");  // not an error: the other layers judge
  EXPECT_EQ(unknown.sku, "nothing for this machine (server 'not named by the firmware', devices dev): no SKU layer");
  ExpectRule mine = parse_expectation_rule("copy.h2d=9 GiB/s", "--expect-rule", 2);
  mine.device = "de*";
  layers.sku.push_back(mine);
  const CaseVerdict known = judge_figure(bandwidth_case(10), kH2d, Ceiling{}, layers);
  EXPECT_EQ(known.sku, "1 rule(s) for this machine");
  CaseResult c = bandwidth_case(10);
  c.verdict = known;
  EXPECT_EQ(nlohmann::json(c).at("verdict").at("sku"), "1 rule(s) for this machine");
}

TEST(Verdict, TravelsThroughTheResultsJson) {
  const auto layers = with_rule("copy.h2d=8 GiB/s");
  CaseResult c = bandwidth_case(6);
  c.verdict = judge_figure(c, kH2d, Ceiling{}, layers);
  const nlohmann::json j = c;
  EXPECT_EQ(j.at("verdict").at("verdict"), "FAIL");
  EXPECT_TRUE(j["verdict"].at("ceiling").is_null());
  const auto back = j.get<CaseResult>();
  ASSERT_TRUE(back.verdict);
  EXPECT_EQ(back.verdict->verdict, "FAIL");
  EXPECT_DOUBLE_EQ(*back.verdict->ratio, 0.75);
  EXPECT_EQ(back.verdict->origin, "--expect-rule 1");
  EXPECT_EQ(back.verdict->reason, "");
  EXPECT_FALSE(back.verdict->ceiling);
  EXPECT_EQ(back.verdict->sku, c.verdict->sku);
  EXPECT_FALSE(back.verdict->sku.empty());
  EXPECT_TRUE(any_failed({back}));
  EXPECT_FALSE(nlohmann::json(bandwidth_case(1)).contains("verdict"));  // unjudged runs write none
}

}  // namespace
}  // namespace xb
