// The round-robin schedule of fleet: every unordered pair of ranks exactly once, no rank twice in a
// step, N - 1 rounds for even N and N for odd, and a cap on pairs per step that splits rounds
// without losing or repeating a pair.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <utility>

#include "core/error.hpp"
#include "jobs/fleet/fleet_schedule.hpp"

namespace xb {
namespace {

void expect_tournament(int n, const std::vector<FleetStep>& steps, std::size_t cap) {
  std::set<std::pair<int, int>> met;
  for (const FleetStep& step : steps) {
    ASSERT_FALSE(step.empty());
    if (cap > 0) {
      EXPECT_LE(step.size(), cap);
    }
    std::set<int> busy;
    for (const FleetPair& p : step) {
      EXPECT_LT(p.a, p.b);
      EXPECT_GE(p.a, 0);
      EXPECT_LT(p.b, n);
      EXPECT_TRUE(busy.insert(p.a).second) << "rank " << p.a << " twice in a step of " << n;
      EXPECT_TRUE(busy.insert(p.b).second) << "rank " << p.b << " twice in a step of " << n;
      EXPECT_TRUE(met.insert({p.a, p.b}).second) << p.a << "-" << p.b << " met twice, n=" << n;
      EXPECT_EQ(fleet_partner(step, p.a), p.b);
      EXPECT_EQ(fleet_partner(step, p.b), p.a);
    }
    for (int r = 0; r < n; ++r) {
      if (!busy.count(r)) {
        EXPECT_EQ(fleet_partner(step, r), -1);
      }
    }
  }
  EXPECT_EQ(met.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << "n=" << n;
}

TEST(FleetSchedule, EveryPairOnceAndNoRankTwiceInARound) {
  for (int n = 2; n <= 17; ++n) {
    SCOPED_TRACE(n);
    const auto rounds = fleet_rounds(n);
    EXPECT_EQ(rounds.size(), static_cast<std::size_t>(n % 2 == 0 ? n - 1 : n));
    for (const FleetStep& r : rounds) EXPECT_EQ(r.size(), static_cast<std::size_t>(n / 2));  // all but the bye
    expect_tournament(n, rounds, 0);
  }
}

TEST(FleetSchedule, ACapSplitsRoundsIntoSteps) {
  for (int n : {2, 4, 5, 8, 9, 16}) {
    for (std::size_t cap : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " cap=" << cap);
      const auto steps = fleet_steps(n, cap);
      expect_tournament(n, steps, cap);
      const std::size_t per_round = static_cast<std::size_t>(n / 2);
      const std::size_t rounds = static_cast<std::size_t>(n % 2 == 0 ? n - 1 : n);
      EXPECT_EQ(steps.size(), rounds * ((per_round + cap - 1) / cap));
    }
  }
  EXPECT_EQ(fleet_steps(8, 0), fleet_rounds(8));   // 0: no cap
  EXPECT_EQ(fleet_steps(8, 99), fleet_rounds(8));  // a cap above the round's size changes nothing
}

TEST(FleetSchedule, FourRanksInThreeRounds) {
  // The circle method with 0 fixed: (0,3)(1,2), then (0,2)(1,3)... every round two disjoint pairs.
  const auto rounds = fleet_rounds(4);
  ASSERT_EQ(rounds.size(), 3u);
  std::set<std::set<std::pair<int, int>>> seen;
  for (const auto& r : rounds) {
    std::set<std::pair<int, int>> s;
    for (const auto& p : r) s.insert({p.a, p.b});
    seen.insert(s);
  }
  const std::set<std::set<std::pair<int, int>>> expected = {
      {{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}};
  EXPECT_EQ(seen, expected);
}

TEST(FleetSchedule, FewerThanTwoRanksIsAnError) {
  EXPECT_THROW(fleet_rounds(1), std::invalid_argument);
  EXPECT_THROW(fleet_rounds(0), std::invalid_argument);
}

// Issue 17's schedules.
std::set<std::pair<int, int>> pairs_of(const std::vector<FleetStep>& rounds) {
  std::set<std::pair<int, int>> s;
  for (const auto& r : rounds) {
    for (const auto& p : r) s.insert({p.a, p.b});
  }
  return s;
}

TEST(FleetSchedule, QuickIsHalfAgainstHalfEveryRankOnce) {
  const auto even = fleet_quick_rounds(6);
  ASSERT_EQ(even.size(), 1u);
  EXPECT_EQ(pairs_of(even), (std::set<std::pair<int, int>>{{0, 3}, {1, 4}, {2, 5}}));
  const auto odd = fleet_quick_rounds(5);  // the rank left over meets rank 0 in a second round
  ASSERT_EQ(odd.size(), 2u);
  EXPECT_EQ(pairs_of(odd), (std::set<std::pair<int, int>>{{0, 2}, {1, 3}, {0, 4}}));
  EXPECT_THROW(fleet_quick_rounds(1), std::invalid_argument);
}

TEST(FleetSchedule, TopologyPairsCrossLocations) {
  // Ranks 0, 2, 4 in rack a; 1, 3, 5 in rack b: ordered a a a b b b, then half against half.
  const auto rounds = fleet_topology_rounds({"rack-a", "rack-b", "rack-a", "rack-b", "rack-a", "rack-b"});
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_EQ(pairs_of(rounds), (std::set<std::pair<int, int>>{{0, 1}, {2, 3}, {4, 5}}));
}

TEST(FleetSchedule, ARoundsFileIsReadAndHeldToTheFleet) {
  const auto rounds = parse_fleet_rounds("# two rounds\n0-1 2-3\n\n1-2 3-0  # a comment\n", "r.txt");
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_EQ(pairs_of(rounds), (std::set<std::pair<int, int>>{{0, 1}, {2, 3}, {1, 2}, {0, 3}}));
  EXPECT_NO_THROW(check_fleet_rounds(rounds, 4, "r.txt"));
  const auto message = [](const auto& f) {
    try {
      f();
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { check_fleet_rounds(rounds, 3, "r.txt"); }), "r.txt: round 1 names rank 3, but the fleet has 3 ranks (0 to 2)");
  EXPECT_EQ(message([] { check_fleet_rounds(parse_fleet_rounds("0-1 1-2\n", "r"), 3, "r"); }), "r: round 1 has rank 1 twice");
  EXPECT_EQ(message([] { check_fleet_rounds(parse_fleet_rounds("0-1\n1-0\n", "r"), 3, "r"); }), "r: round 2 measures 0-1 again (each pair once)");
  EXPECT_EQ(message([] { parse_fleet_rounds("0-1\n0:2\n", "r"); }), "r:2: '0:2' is not a pair of ranks A-B (a round is pairs \"0-1 2-3\")");
  EXPECT_EQ(message([] { parse_fleet_rounds("2-2\n", "r"); }), "r:1: '2-2' pairs rank 2 with itself");
  EXPECT_EQ(message([] { parse_fleet_rounds("# nothing\n", "r"); }), "r: no round in it (one round per line: \"0-1 2-3\")");
}

TEST(FleetSchedule, ALocationsFileIsHostAndLocation) {
  const auto locations = parse_fleet_locations("node-a rack1/sw1\nnode-b rack2/sw4 # spare\n", "loc");
  EXPECT_EQ(locations.at("node-b"), "rack2/sw4");
  EXPECT_THROW(parse_fleet_locations("node-a\n", "loc"), UsageError);
  EXPECT_THROW(parse_fleet_locations("node-a r1\nnode-a r2\n", "loc"), UsageError);
}

TEST(FleetSchedule, AnyRoundsSplitUnderTheCap) {
  const auto steps = fleet_split_rounds(fleet_quick_rounds(8), 2);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].size(), 2u);
  EXPECT_EQ(pairs_of(steps), pairs_of(fleet_quick_rounds(8)));
}

}  // namespace
}  // namespace xb
