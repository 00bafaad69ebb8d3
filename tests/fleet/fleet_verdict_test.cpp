// The verdict on a fleet's links: the median of all links, and exactly those below threshold x
// median or below the floor flagged, each saying why; localisation names a node whose every link
// is slow, not when every node is.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <tuple>
#include <vector>

#include "jobs/fleet/fleet_verdict.hpp"

namespace xb {
namespace {

std::vector<FleetLink> links_of(const std::vector<double>& rates) {
  std::vector<FleetLink> v;
  for (std::size_t i = 0; i < rates.size(); ++i) v.push_back({static_cast<int>(i), static_cast<int>(i + 1), rates[i]});
  return v;
}

TEST(FleetVerdict, OneSlowLinkAmongTwelve) {
  std::vector<double> rates(12, 10.0);
  rates[5] = 0.5;
  rates[2] = 9.0;  // 0.9 x median: within the spread of good links
  const FleetVerdict v = judge_fleet_links(links_of(rates), 0.8);
  EXPECT_DOUBLE_EQ(v.median_gbps, 10.0);
  ASSERT_EQ(v.flagged.size(), 1u);
  EXPECT_EQ(v.flagged[0].from, 5);
  EXPECT_DOUBLE_EQ(v.flagged[0].gbps, 0.5);
}

TEST(FleetVerdict, TheThresholdIsAFractionOfTheMedian) {
  const auto links = links_of({1, 2, 3, 4, 5});  // median 3
  EXPECT_EQ(judge_fleet_links(links, 0.5).flagged.size(), 1u);  // below 1.5: 1
  EXPECT_EQ(judge_fleet_links(links, 0.7).flagged.size(), 2u);  // below 2.1: 1, 2
  EXPECT_EQ(judge_fleet_links(links, 1.0).flagged.size(), 2u);  // below 3 (3 itself is not below)
  EXPECT_TRUE(judge_fleet_links(links, 0.0).flagged.empty());   // 0 flags nothing
  EXPECT_DOUBLE_EQ(judge_fleet_links(links_of({1, 2, 3, 4}), 0.8).median_gbps, 2.5);
}

TEST(FleetVerdict, NoLinksNoFlags) {
  const FleetVerdict v = judge_fleet_links({}, 0.8);
  EXPECT_TRUE(v.flagged.empty());
  EXPECT_EQ(v.median_gbps, 0.0);
}

TEST(FleetVerdict, ConfirmationKeepsOnlyLinksSlowAgain) {
  std::vector<double> rates(12, 10.0);
  rates[3] = 1.0;  // a bad cable
  rates[7] = 6.0;  // a burst of other work during its first measurement
  rates[9] = 7.0;  // slow at first, not measured again (kept: nothing cleared it)
  const FleetVerdict first = judge_fleet_links(links_of(rates), 0.8);
  ASSERT_EQ(first.flagged.size(), 3u);
  const FleetVerdict v = confirm_fleet_verdict(first, {{3, 4, 1.1}, {7, 8, 9.5}});
  EXPECT_DOUBLE_EQ(v.median_gbps, first.median_gbps);  // judged against the first pass's median
  ASSERT_EQ(v.flagged.size(), 2u);
  EXPECT_EQ(v.flagged[0].from, 3);
  EXPECT_DOUBLE_EQ(v.flagged[0].gbps, 1.0);  // the first figure is the one reported
  EXPECT_EQ(v.flagged[1].from, 9);
  ASSERT_EQ(v.cleared.size(), 1u);
  EXPECT_EQ(v.cleared[0].from, 7);
}

TEST(FleetVerdict, ConfirmationMatchesEachLinkByBothEnds) {
  // A bad NIC on rank 0 flags several links from the same source (0->1, 0->2) and one into it
  // (3->0): each re-measured figure belongs to its own link, whatever the order it comes back in.
  std::vector<FleetLink> links;
  for (int from = 0; from < 4; ++from) {
    for (int to = 0; to < 4; ++to) {
      if (from != to) links.push_back({from, to, 10.0});
    }
  }
  for (FleetLink& l : links) {
    if ((l.from == 0 && l.to != 3) || (l.from == 3 && l.to == 0)) l.gbps = 2.0;
  }
  const FleetVerdict first = judge_fleet_links(links, 0.8);
  ASSERT_EQ(first.flagged.size(), 3u);
  for (const auto& again : {std::vector<FleetLink>{{0, 1, 9.8}, {0, 2, 2.1}, {3, 0, 2.2}},
                            std::vector<FleetLink>{{3, 0, 2.2}, {0, 2, 2.1}, {0, 1, 9.8}},
                            std::vector<FleetLink>{{0, 2, 2.1}, {3, 0, 2.2}, {0, 1, 9.8}}}) {
    const FleetVerdict v = confirm_fleet_verdict(first, again);
    ASSERT_EQ(v.flagged.size(), 2u);
    EXPECT_EQ(v.flagged[0].from, 0);
    EXPECT_EQ(v.flagged[0].to, 2);  // slow again: confirmed
    EXPECT_EQ(v.flagged[1].from, 3);
    EXPECT_EQ(v.flagged[1].to, 0);  // into the bad rank, slow again: confirmed
    ASSERT_EQ(v.cleared.size(), 1u);
    EXPECT_EQ(v.cleared[0].from, 0);
    EXPECT_EQ(v.cleared[0].to, 1);  // fast the second time: cleared
    EXPECT_DOUBLE_EQ(v.cleared[0].gbps, 2.0);  // with its first figure
  }
  // 0 -> 1 not measured again (it stays flagged: nothing cleared it), though 0 -> 2, from the same
  // source, came back fast: a link is never judged by another's figure.
  const FleetVerdict v = confirm_fleet_verdict(first, {{0, 2, 9.9}, {3, 0, 2.2}});
  ASSERT_EQ(v.flagged.size(), 2u);
  EXPECT_EQ(v.flagged[0].to, 1);
  EXPECT_EQ(v.flagged[1].from, 3);
  ASSERT_EQ(v.cleared.size(), 1u);
  EXPECT_EQ(v.cleared[0].to, 2);
}

// Every link of a fleet between ranks 0..n-1, at `gbps`, except those `slow` says.
std::vector<FleetLink> fleet_of(int ranks, double gbps, const std::function<bool(int, int)>& slow = {}) {
  std::vector<FleetLink> links;
  for (int from = 0; from < ranks; ++from) {
    for (int to = 0; to < ranks; ++to) {
      if (from != to) links.push_back({from, to, slow && slow(from, to) ? gbps / 5 : gbps});
    }
  }
  return links;
}

TEST(FleetVerdict, AUniformlySlowFleetFailsItsFloor) {
  const auto links = fleet_of(4, 3.0);
  EXPECT_TRUE(judge_fleet_links(links, 0.8).flagged.empty());  // relative alone: nothing stands out
  const FleetFloorFn floor = [](int, int) { return std::optional<double>(10.0); };
  FleetVerdict v = judge_fleet_links(links, 0.8, floor);
  ASSERT_EQ(v.flagged.size(), 12u);
  EXPECT_EQ(v.flagged[0].slow_by, FleetSlowBy::floor);
  EXPECT_EQ(fleet_slow_why(v.flagged[0], v.threshold), "below the floor (10 GB/s)");
  localise_fleet(v, 4, links);
  EXPECT_TRUE(v.every_link_slow);
  EXPECT_TRUE(v.nodes.empty());  // no one node: the fleet as a whole
  EXPECT_EQ(v.links.size(), 12u);
  // A floor only some links lack (an end with an unknown NIC): those are judged relative only.
  const FleetFloorFn partial = [](int from, int) { return from == 0 ? std::optional<double>(10.0) : std::nullopt; };
  EXPECT_EQ(judge_fleet_links(links, 0.8, partial).flagged.size(), 3u);
}

TEST(FleetVerdict, ANodeWhoseEveryLinkIsSlowIsNamedNotItsLinks) {
  // Rank 2's NIC is bad: its 8 links (both directions) are slow; 1 -> 3 is a bad cable of its own.
  const auto links = fleet_of(5, 10.0, [](int from, int to) { return from == 2 || to == 2 || (from == 1 && to == 3); });
  FleetVerdict v = judge_fleet_links(links, 0.8);
  ASSERT_EQ(v.flagged.size(), 9u);
  EXPECT_EQ(v.flagged[0].slow_by, FleetSlowBy::median);
  EXPECT_EQ(fleet_slow_why(v.flagged[0], v.threshold), "below 0.8 x the median link (8 GB/s)");
  EXPECT_EQ(fleet_slow_why(links[0], v.threshold), "");  // not flagged: no reason
  localise_fleet(v, 5, links);
  EXPECT_FALSE(v.every_link_slow);
  ASSERT_EQ(v.nodes.size(), 1u);
  EXPECT_EQ(v.nodes[0].rank, 2);
  EXPECT_EQ(v.nodes[0].slow, 8u);
  EXPECT_EQ(v.nodes[0].links, 8u);
  EXPECT_DOUBLE_EQ(v.nodes[0].median_gbps, 2.0);
  ASSERT_EQ(v.links.size(), 1u);  // the links through rank 2 are the node's; the cable is its own
  EXPECT_EQ(v.links[0].from, 1);
  EXPECT_EQ(v.links[0].to, 3);
}

// A named node's figure is the median of its links, not their slowest or fastest: rank 3's four
// links (both ways to ranks 0 and 1 of a 4-rank fleet, its links to rank 2 not measured) at 1, 2,
// 3 and 9 GB/s give 2.5.
TEST(FleetVerdict, ANamedNodesFigureIsTheMedianOfItsLinks) {
  std::vector<FleetLink> links;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      if (a != b) links.push_back({a, b, 10.0});
    }
  }
  for (const auto& [from, to, gbps] : std::vector<std::tuple<int, int, double>>{{3, 0, 1.0}, {0, 3, 2.0}, {3, 1, 3.0}, {1, 3, 9.0}}) {
    links.push_back({from, to, gbps});
  }
  const FleetFloorFn floor = [](int, int) { return std::optional<double>(9.5); };
  FleetVerdict v = judge_fleet_links(links, 0.8, floor);
  localise_fleet(v, 4, links);
  ASSERT_EQ(v.nodes.size(), 1u);
  EXPECT_EQ(v.nodes[0].rank, 3);
  EXPECT_EQ(v.nodes[0].links, 4u);
  EXPECT_DOUBLE_EQ(v.nodes[0].median_gbps, 2.5);
}

// A share rule's floor of a link is that share of the slower NIC of its two ends; an absolute
// floor stands for every link; a link with an end of unknown NIC has none.
TEST(FleetVerdict, AShareFloorIsOfTheSlowerNicOfTheLink) {
  const FleetFloorFn share = fleet_floor_of(std::nullopt, 0.5, {"100", "25", ""});
  EXPECT_EQ(share(0, 1), 12.5);
  EXPECT_EQ(share(1, 0), 12.5);
  EXPECT_EQ(share(0, 2), std::nullopt);
  EXPECT_EQ(share(2, 1), std::nullopt);
  const FleetFloorFn absolute = fleet_floor_of(20.0, 0.5, {"100", "25", ""});
  EXPECT_EQ(absolute(0, 2), 20.0);
  EXPECT_EQ(absolute(0, 1), 20.0);
  EXPECT_EQ(fleet_floor_of(std::nullopt, std::nullopt, {"100", "25"})(0, 1), std::nullopt);
}

TEST(FleetVerdict, TwoRanksNameTheLinkNotANode) {
  const auto links = fleet_of(2, 10.0, [](int, int) { return true; });
  const FleetFloorFn floor = [](int, int) { return std::optional<double>(5.0); };
  FleetVerdict v = judge_fleet_links(links, 0.8, floor);
  localise_fleet(v, 2, links);
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_FALSE(v.every_link_slow);
  EXPECT_EQ(v.links.size(), 2u);
}

TEST(FleetVerdict, ARankMeasuredAgainstOnePartnerIsNotNamed) {
  // Quick schedule: each rank meets one other; a slow pair cannot say which end is at fault.
  std::vector<FleetLink> links{{0, 2, 1.0}, {2, 0, 1.0}, {1, 3, 10.0}, {3, 1, 10.0}};
  FleetVerdict v = judge_fleet_links(links, 0.5);
  ASSERT_EQ(v.flagged.size(), 2u);
  localise_fleet(v, 4, links);
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_EQ(v.links.size(), 2u);
}

}  // namespace
}  // namespace xb
