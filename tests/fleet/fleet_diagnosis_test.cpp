// The diagnosis at rank 0 without a transport: suspects measured again all at once, a group still
// slow halved until a link is slow alone, cleared links with their first figure, the rounds
// counted, and the node named at the end. The "measurements" are a model: each link's figure when
// measured in a group of k pairs (congestion makes a crowded group slow).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "jobs/fleet/fleet_diagnosis.hpp"

namespace xb {
namespace {

using Model = std::function<double(int from, int to, std::size_t pairs_at_once)>;

// Every directed link of a fleet of `ranks`, each at the figure `gbps` gives it.
std::vector<FleetLink> every_link(int ranks, const std::function<double(int from, int to)>& gbps) {
  std::vector<FleetLink> links;
  for (int from = 0; from < ranks; ++from) {
    for (int to = 0; to < ranks; ++to) {
      if (from != to) links.push_back({from, to, gbps(from, to)});
    }
  }
  return links;
}

// Runs the diagnosis to its end over `ranks` with the model, as the job does; returns the verdict.
FleetVerdict diagnose(int ranks, const Model& model, const FleetFloorFn& floor = {}) {
  const std::vector<FleetLink> first =
      every_link(ranks, [&](int from, int to) { return model(from, to, static_cast<std::size_t>(ranks / 2)); });
  FleetDiagnosis d(ranks, 0.8, floor);
  d.first_pass(first);
  for (int guard = 0; guard < 10000; ++guard) {
    const FleetLinkSet group = d.next_group();
    if (group.empty()) break;
    std::set<std::pair<int, int>> pairs;
    for (const auto& [from, to] : group) pairs.insert({std::min(from, to), std::max(from, to)});
    std::vector<FleetLink> again;
    for (const auto& [from, to] : group) again.push_back({from, to, model(from, to, pairs.size())});
    d.measured_again(again);
  }
  return d.verdict();
}

TEST(FleetDiagnosis, ABurstClearsInOneRoundAndABadCableIsNamedAlone) {
  // First pass: links 0->1 and 2->3 slow (a burst); 4->5 is a bad cable, slow however measured.
  bool first_pass = true;
  const Model model = [&](int from, int to, std::size_t) {
    if (from == 4 && to == 5) return 1.0;
    if (first_pass && ((from == 0 && to == 1) || (from == 2 && to == 3))) return 2.0;
    return 10.0;
  };
  const std::vector<FleetLink> first = every_link(8, [&](int from, int to) { return model(from, to, 4); });
  first_pass = false;
  FleetDiagnosis d(8, 0.8, {});
  d.first_pass(std::vector<FleetLink>(first.rbegin(), first.rend()));  // in any order
  FleetLinkSet group = d.next_group();
  EXPECT_EQ(group, (FleetLinkSet{{0, 1}, {2, 3}, {4, 5}}));  // every suspect at once
  std::vector<FleetLink> again;
  for (const auto& [from, to] : group) again.push_back({from, to, model(from, to, group.size())});
  d.measured_again(again);
  group = d.next_group();
  EXPECT_EQ(group, (FleetLinkSet{{4, 5}}));  // still slow: alone now
  d.measured_again({{4, 5, 0.9}});
  EXPECT_TRUE(d.next_group().empty());
  const FleetVerdict v = d.verdict();
  ASSERT_EQ(v.flagged.size(), 1u);
  EXPECT_EQ(v.flagged[0].from, 4);
  EXPECT_DOUBLE_EQ(v.flagged[0].gbps, 1.0);
  ASSERT_EQ(v.cleared.size(), 2u);
  EXPECT_DOUBLE_EQ(v.cleared[0].gbps, 2.0);  // a cleared link keeps its first figure
  EXPECT_EQ(v.retests, 2);
  // What a result shows: every link once, in (from, to) order, a re-measured link at its last
  // figure (what the verdict decided by), the others at their first.
  const std::vector<FleetLink> shown = std::move(d).shown();
  ASSERT_EQ(shown.size(), first.size());
  EXPECT_TRUE(std::is_sorted(shown.begin(), shown.end(), fleet_link_order));
  for (const FleetLink& l : shown) {
    SCOPED_TRACE(testing::Message() << l.from << "->" << l.to);
    const double expected = l.from == 4 && l.to == 5 ? 0.9 : 10.0;  // the burst's links: cleared at 10
    EXPECT_DOUBLE_EQ(l.gbps, expected);
  }
}

TEST(FleetDiagnosis, ACrowdedGroupIsHalvedUntilEachLinkIsAlone) {
  // Eight suspects that are slow whenever more than two pairs run at once (a congested switch),
  // and one (6 -> 7) that is slow alone too. Halving: 8 pairs -> 4 + 4 -> 2 + 2 + 2 + 2: each
  // half of two runs fast but the one holding 6 -> 7, which is halved to that pair alone.
  const Model model = [](int from, int to, std::size_t pairs) {
    if (from == 6 && to == 7) return 1.0;
    const bool suspect = from % 2 == 0 && to == from + 1;
    return suspect && pairs > 2 ? 3.0 : 10.0;
  };
  const FleetVerdict v = diagnose(16, model);
  ASSERT_EQ(v.flagged.size(), 1u);
  EXPECT_EQ(v.flagged[0].from, 6);
  EXPECT_EQ(v.flagged[0].to, 7);
  EXPECT_EQ(v.cleared.size(), 7u);
  EXPECT_EQ(v.retests, 1 + 2 + 4 + 1);  // all, the halves, the quarters, 6 -> 7 alone
}

TEST(FleetDiagnosis, WithoutConfirmationTheFirstPassStandsAndTheNodeIsNamed) {
  const std::vector<FleetLink> first = every_link(5, [](int from, int to) { return from == 3 || to == 3 ? 1.0 : 10.0; });
  FleetDiagnosis d(5, 0.8, {});
  d.first_pass(first);
  d.skip_confirmation();
  EXPECT_TRUE(d.next_group().empty());
  const FleetVerdict v = d.verdict();
  EXPECT_EQ(v.flagged.size(), 8u);
  ASSERT_EQ(v.nodes.size(), 1u);
  EXPECT_EQ(v.nodes[0].rank, 3);
  EXPECT_TRUE(v.links.empty());
  EXPECT_EQ(v.retests, 0);
}

TEST(FleetDiagnosis, ASlowNodesLinksEachRanAloneAndAreConfirmedInOneRetest) {
  // Rank 3's NIC is bad. Its four pairs share rank 3, so the retest runs them one a step: each ran
  // alone, slow again, so confirmed at once; no halving (which would take 4 + 2 + 2 + 1 + 1 + 1 + 1
  // retests and, at 1024 ranks, ten times a node's links in steps).
  const FleetVerdict v = diagnose(5, [](int from, int to, std::size_t) { return from == 3 || to == 3 ? 1.0 : 10.0; });
  EXPECT_EQ(v.flagged.size(), 8u);
  EXPECT_TRUE(v.cleared.empty());
  EXPECT_EQ(v.retests, 1);
  ASSERT_EQ(v.nodes.size(), 1u);
  EXPECT_EQ(v.nodes[0].rank, 3);
  // The steps of that retest: one pair each, as the job runs them.
  FleetLinkSet links;
  for (const int r : {0, 1, 2, 4}) links.insert({3, r});
  EXPECT_EQ(fleet_retest_steps(links, 0).size(), 4u);
  EXPECT_EQ(fleet_retest_steps({{0, 1}, {2, 3}, {1, 0}}, 0).size(), 1u);  // disjoint pairs: one step
  EXPECT_EQ(fleet_retest_steps({{0, 1}, {2, 3}, {4, 5}}, 2).size(), 2u);  // the cap
}

TEST(FleetDiagnosis, ThreeOfASlowNodesPairsStandForAllOfThem) {
  // Rank 5's NIC is bad; 9 ranks: 8 pairs of rank 5. The first retest measures three of them
  // (partners not suspect themselves); all three slow again alone, so the other five pairs are
  // confirmed with them, never measured again.
  const Model model = [](int from, int to, std::size_t) { return from == 5 || to == 5 ? 1.0 : 10.0; };
  const std::vector<FleetLink> first = every_link(9, [&](int from, int to) { return model(from, to, 4); });
  FleetDiagnosis d(9, 0.8, {});
  d.first_pass(first);
  const FleetLinkSet group = d.next_group();
  EXPECT_EQ(group.size(), 2 * kFleetNodeProbes);  // both directions of three pairs
  for (const auto& [from, to] : group) EXPECT_TRUE(from == 5 || to == 5) << from << "->" << to;
  EXPECT_EQ(fleet_retest_steps(group, 0).size(), kFleetNodeProbes);  // each alone in its step
  std::vector<FleetLink> again;
  for (const auto& [from, to] : group) again.push_back({from, to, 1.1});
  d.measured_again(again);
  EXPECT_TRUE(d.next_group().empty());
  const FleetVerdict v = d.verdict();
  EXPECT_EQ(v.flagged.size(), 16u);  // every link of the node, with its first figure
  EXPECT_TRUE(v.cleared.empty());
  EXPECT_EQ(v.retests, 1);
  ASSERT_EQ(v.nodes.size(), 1u);
  EXPECT_EQ(v.nodes[0].rank, 5);
  EXPECT_EQ(v.nodes[0].slow, 16u);
}

TEST(FleetDiagnosis, WhenANodesProbeClearsItsOtherPairsAreMeasuredThemselves) {
  // Every link of rank 2 was slow in the first pass (a burst on it), but it is fine again: the
  // first probe comes back fast, so the node's held pairs are measured too, and all clear.
  const std::vector<FleetLink> first = every_link(7, [](int from, int to) { return from == 2 || to == 2 ? 2.0 : 10.0; });
  FleetDiagnosis d(7, 0.8, {});
  d.first_pass(first);
  FleetLinkSet group = d.next_group();
  EXPECT_EQ(group.size(), 2 * kFleetNodeProbes);
  std::vector<FleetLink> again;
  for (const auto& [from, to] : group) again.push_back({from, to, 10.0});
  d.measured_again(again);
  group = d.next_group();
  EXPECT_EQ(group.size(), 2 * (6 - kFleetNodeProbes));  // the held pairs, both ways
  for (const auto& [from, to] : group) EXPECT_TRUE(from == 2 || to == 2) << from << "->" << to;
  again.clear();
  for (const auto& [from, to] : group) again.push_back({from, to, 10.0});
  d.measured_again(again);
  EXPECT_TRUE(d.next_group().empty());
  const FleetVerdict v = d.verdict();
  EXPECT_TRUE(v.flagged.empty());
  EXPECT_EQ(v.cleared.size(), 12u);
  EXPECT_TRUE(v.nodes.empty());
  EXPECT_EQ(v.retests, 2);
}

TEST(FleetDiagnosis, AFloorFlagsAndConfirmsAUniformlySlowFleet) {
  const FleetFloorFn floor = [](int, int) { return std::optional<double>(5.0); };
  const FleetVerdict v = diagnose(4, [](int, int, std::size_t) { return 3.0; }, floor);
  EXPECT_EQ(v.flagged.size(), 12u);
  EXPECT_TRUE(v.cleared.empty());
  EXPECT_TRUE(v.every_link_slow);
  EXPECT_TRUE(v.nodes.empty());
}

}  // namespace
}  // namespace xb
