// The round-robin schedule of fleet: every unordered pair of ranks exactly once, no rank twice in a
// step, N - 1 rounds for even N and N for odd, and a cap on pairs per step that splits rounds
// without losing or repeating a pair.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <utility>

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

}  // namespace
}  // namespace xb
