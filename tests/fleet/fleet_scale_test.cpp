// The fleet at 1024 and 4096 ranks, simulated (issue 17 item 5): the schedules' steps, the diagnosis
// and localisation, the time to a verdict at a stated cost per step, the bytes rank 0 and the
// others hold and the result's size, over the same code a run decides with (fleet_simulation.hpp).
// Each fails when a schedule or the localisation breaks at that scale, or a rank's memory grows
// with the square of the fleet.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "jobs/fleet/fleet_diagnosis.hpp"
#include "jobs/fleet/fleet_schedule.hpp"
#include "fleet/fleet_simulation.hpp"

namespace xb {
namespace {

bool has_link(const std::vector<FleetLink>& list, int from, int to) {
  return std::any_of(list.begin(), list.end(), [&](const FleetLink& l) { return l.from == from && l.to == to; });
}

TEST(FleetScale, RoundRobinAt1024NamesTheSlowNodeAndTheBadCableAndClearsTheBursts) {
  FleetSimulation sim;
  sim.ranks = 1024;
  sim.slow_nodes = {17};
  sim.slow_links = {{3, 9}};
  sim.transient_links = {{100, 200}, {6, 5}};
  sim.step_seconds = 2;
  const FleetSimulationOutcome out = simulate_fleet(sim);
  EXPECT_EQ(out.links, 1024u * 1023u);  // every direction of every pair
  EXPECT_EQ(out.first_steps, 1023u);    // the tournament's rounds
  const FleetVerdict& v = out.verdict;
  ASSERT_EQ(v.nodes.size(), 1u);
  EXPECT_EQ(v.nodes[0].rank, 17);
  EXPECT_EQ(v.nodes[0].links, 2u * 1023u);
  EXPECT_EQ(v.nodes[0].slow, 2u * 1023u);
  ASSERT_EQ(v.links.size(), 1u);  // the node's links are not listed one by one
  EXPECT_EQ(v.links[0].from, 3);
  EXPECT_EQ(v.links[0].to, 9);
  EXPECT_EQ(v.flagged.size(), 2u * 1023u + 1u);
  ASSERT_EQ(v.cleared.size(), 2u);
  EXPECT_TRUE(has_link(v.cleared, 100, 200));
  EXPECT_TRUE(has_link(v.cleared, 6, 5));
  EXPECT_FALSE(v.every_link_slow);
  // The retests: three of the node's 1023 pairs, each alone in a step (they share rank 17), stand
  // for all of them; the few that shared a step with another suspect halved. Not 1023 steps (each
  // pair of the node), nor n log n (halving them).
  EXPECT_GE(out.retest_steps, kFleetNodeProbes);
  EXPECT_LE(out.retest_steps, kFleetNodeProbes + 8u);
  EXPECT_DOUBLE_EQ(out.seconds, 2.0 * static_cast<double>(out.first_steps + out.retest_steps));
  // Rank 0 holds every link's figure; another rank one round and its own links' figures.
  EXPECT_GE(out.root_bytes, out.links * sizeof(FleetLink));
  EXPECT_LE(out.root_bytes, out.links * 2 * sizeof(FleetLink));
  EXPECT_LE(out.rank_bytes, 512u * sizeof(FleetPair) + 1023u * sizeof(FleetLink) + 4096u);
  // The matrix case without its matrix (above 256 ranks): names, the verdict's lists; well below a
  // dense matrix's 1M cells.
  EXPECT_GT(out.result_bytes, 1024u * 10u);
  EXPECT_LT(out.result_bytes, 1024u * 1023u);
}

TEST(FleetScale, AnotherRanksMemoryGrowsWithTheFleetNotItsSquare) {
  FleetSimulation sim;
  sim.build_matrix = false;
  sim.ranks = 256;
  const FleetSimulationOutcome small = simulate_fleet(sim);
  sim.ranks = 1024;
  const FleetSimulationOutcome big = simulate_fleet(sim);
  // 4x the ranks: 4x a rank's bytes (one round, its own links), 16x rank 0's (every link).
  EXPECT_LE(big.rank_bytes, 5 * small.rank_bytes);
  EXPECT_GE(big.root_bytes, 12 * small.root_bytes);
  EXPECT_TRUE(big.verdict.flagged.empty());  // a healthy fleet's spread flags nothing
  EXPECT_EQ(big.retest_steps, 0u);
}

TEST(FleetScale, QuickAt4096TakesOneStepAndNamesTheBadCableInTwoMore) {
  FleetSimulation sim;
  sim.ranks = 4096;
  sim.schedule = "quick";
  sim.build_matrix = false;
  sim.slow_links = {{100, 2148}};       // quick pairs rank i with i + 2048
  sim.transient_links = {{2055, 7}};
  const FleetSimulationOutcome out = simulate_fleet(sim);
  EXPECT_EQ(out.links, 4096u);
  EXPECT_EQ(out.first_steps, 1u);
  ASSERT_EQ(out.verdict.flagged.size(), 1u);
  EXPECT_EQ(out.verdict.flagged[0].from, 100);
  EXPECT_EQ(out.verdict.flagged[0].to, 2148);
  ASSERT_EQ(out.verdict.cleared.size(), 1u);
  EXPECT_TRUE(out.verdict.nodes.empty());  // one partner each: a link is named, never a node
  // Both suspects at once (one step), then the one still slow alone (one step).
  EXPECT_EQ(out.retest_steps, 2u);
  EXPECT_DOUBLE_EQ(out.seconds, 3.0);
  EXPECT_LE(out.rank_bytes, 2048u * sizeof(FleetPair) + sizeof(FleetLink));
  EXPECT_LE(out.root_bytes, 4096u * 4 * sizeof(FleetLink) + 65536u);
}

TEST(FleetScale, TopologyAt4096CrossesRacksInOneStepAndASlowNodeShowsAsItsLinks) {
  FleetSimulation sim;
  sim.ranks = 4096;
  sim.schedule = "topology";
  sim.build_matrix = false;
  for (int r = 0; r < sim.ranks; ++r) sim.locations.push_back(fmt::format("rack{:02}/sw{}", r % 64, r % 4));
  sim.slow_nodes = {64};  // rack00
  const FleetSimulationOutcome out = simulate_fleet(sim);
  EXPECT_EQ(out.first_steps, 1u);
  EXPECT_EQ(out.links, 4096u);
  ASSERT_EQ(out.verdict.flagged.size(), 2u);  // both directions of its one pair
  const FleetLink& l = out.verdict.flagged[0];
  EXPECT_TRUE(l.from == 64 || l.to == 64);
  const int partner = l.from == 64 ? l.to : l.from;
  EXPECT_NE(sim.locations[static_cast<std::size_t>(partner)].substr(0, 6), "rack00");  // across racks
  EXPECT_TRUE(out.verdict.nodes.empty());
  EXPECT_EQ(out.retest_steps, 1u);  // one pair: alone at once
}

TEST(FleetScale, EveryLinkBelowTheFloorAt1024FailsTheFleetInOneRetest) {
  FleetSimulation sim;
  sim.ranks = 1024;
  sim.build_matrix = false;
  sim.floor_gbps = 40;  // every link runs at about 25: the fleet as a whole is off
  const FleetSimulationOutcome out = simulate_fleet(sim);
  EXPECT_EQ(out.verdict.flagged.size(), out.links);
  EXPECT_TRUE(out.verdict.every_link_slow);
  EXPECT_TRUE(out.verdict.nodes.empty());
  EXPECT_EQ(out.verdict.flagged[0].slow_by, FleetSlowBy::floor);
  // One retest of every pair (packed as the tournament is), then confirmed: not halved to each
  // pair alone.
  EXPECT_EQ(out.verdict.retests, 1);
  EXPECT_LE(out.retest_steps, 2u * 1023u);
}

TEST(FleetScale, RefusesWhatItCannotSimulate) {
  EXPECT_THROW(simulate_fleet(FleetSimulation{}), std::invalid_argument);  // no ranks
  FleetSimulation sim;
  sim.ranks = 8;
  sim.slow_nodes = {8};
  EXPECT_THROW(simulate_fleet(sim), std::invalid_argument);
  sim.slow_nodes = {};
  sim.schedule = "rounds";
  EXPECT_THROW(simulate_fleet(sim), std::invalid_argument);
  sim.schedule = "topology";  // without locations
  EXPECT_THROW(simulate_fleet(sim), std::invalid_argument);
}

}  // namespace
}  // namespace xb
