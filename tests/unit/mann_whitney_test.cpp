// The Mann–Whitney U test: U from ranks (ties as halves), the exact two-sided p checked against a
// count of every arrangement of the pooled values (done here, independently, by enumeration), the
// smallest p at 3 + 3 and 4 + 4, symmetry, ties kept exact (so small tied samples cannot look
// significant), and the normal approximation beyond 40 runs.
#include "core/mann_whitney.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace xb {
namespace {

double u_of(const std::vector<double>& a, const std::vector<double>& b) {
  double u = 0;
  for (const double x : a) {
    for (const double y : b) u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
  }
  return u;
}

// The two-sided p by brute force: every way of choosing which n1 of the pooled values are "a",
// the share whose U is as far from its mean as the observed one or farther.
double enumerated_p(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> pooled(a);
  pooled.insert(pooled.end(), b.begin(), b.end());
  const double mean = static_cast<double>(a.size() * b.size()) / 2;
  const double observed = std::abs(u_of(a, b) - mean);
  std::vector<bool> pick(pooled.size(), false);
  std::fill(pick.begin(), pick.begin() + static_cast<long>(a.size()), true);
  std::sort(pick.begin(), pick.end());
  double extreme = 0, all = 0;
  do {
    std::vector<double> x, y;
    for (std::size_t i = 0; i < pooled.size(); ++i) (pick[i] ? x : y).push_back(pooled[i]);
    all += 1;
    if (std::abs(u_of(x, y) - mean) >= observed - 1e-9) extreme += 1;
  } while (std::next_permutation(pick.begin(), pick.end()));
  return extreme / all;
}

TEST(MannWhitney, UCountsPairsAndTiesAsHalves) {
  const std::vector<double> a{1, 5, 7}, b{2, 5, 9};
  EXPECT_DOUBLE_EQ(mann_whitney(a, b).u, u_of(a, b));
  EXPECT_DOUBLE_EQ(mann_whitney(a, b).u, 3.5);
}

TEST(MannWhitney, TheExactPIsTheShareOfArrangementsAsExtreme) {
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases{
      {{1, 2, 3}, {4, 5, 6}},
      {{10.0, 10.1, 9.9, 10.2}, {8.0, 8.1, 7.9, 8.2}},
      {{3, 8, 1, 9, 4}, {2, 7, 5, 6}},
      {{11, 14, 19, 12, 15, 13}, {16, 10, 18, 17, 20, 21, 22}},
      {{1.5}, {2.5, 0.5}},
      {{1, 2, 2, 3, 9}, {2, 3, 4, 5}},             // ties across the samples
      {{7, 7, 8, 9}, {1, 2, 2, 7, 3}},             // and within them
      {{5, 5, 5, 6, 6, 6}, {4, 4, 5, 5, 4, 4, 5}},  // heavy ties, as histogram buckets give
  };
  for (const auto& [a, b] : cases) {
    const MannWhitney r = mann_whitney(a, b);
    EXPECT_TRUE(r.exact);
    EXPECT_NEAR(r.p_value, enumerated_p(a, b), 1e-12) << a.size() << " + " << b.size();
    EXPECT_NEAR(mann_whitney(b, a).p_value, r.p_value, 1e-12);  // two-sided: symmetric
  }
}

TEST(MannWhitney, CompleteSeparationReachesTwoOverTheArrangements) {
  EXPECT_NEAR(mann_whitney(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6}).p_value, 2.0 / 20, 1e-12);
  EXPECT_NEAR(mann_whitney(std::vector<double>{1, 2, 3, 4}, std::vector<double>{5, 6, 7, 8}).p_value, 2.0 / 70, 1e-12);
  // Interleaved values: no evidence of a difference.
  EXPECT_GT(mann_whitney(std::vector<double>{1, 3, 5, 7}, std::vector<double>{2, 4, 6, 8}).p_value, 0.5);
}

TEST(MannWhitney, TiesStayExactAndCannotMakeSmallSamplesLookSignificant) {
  // 3 + 4 runs fully apart, with a tie inside one side: the exact minimum is 2/35 = 0.057, not
  // below 5% (the normal approximation would say 0.0498).
  const MannWhitney r = mann_whitney(std::vector<double>{10, 10, 11}, std::vector<double>{1, 2, 3, 4});
  EXPECT_TRUE(r.exact);
  EXPECT_GE(r.p_value, 0.05);
  EXPECT_NEAR(mann_whitney_smallest_p(3, 4), 2.0 / 35, 1e-12);
  EXPECT_NEAR(mann_whitney_smallest_p(2, 2), 2.0 / 6, 1e-12);
  EXPECT_NEAR(mann_whitney_smallest_p(4, 4), 2.0 / 70, 1e-12);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximationWithTies) {
  std::vector<double> low(25), high(25);
  std::iota(low.begin(), low.end(), 0.0);
  std::iota(high.begin(), high.end(), 100.0);
  high[0] = low[24];  // a tie across the two
  const MannWhitney apart = mann_whitney(low, high);
  EXPECT_FALSE(apart.exact);
  EXPECT_LT(apart.p_value, 1e-6);
  std::vector<double> odd, even;
  for (int i = 0; i < 25; ++i) {
    odd.push_back(2 * i + 1);
    even.push_back(2 * i);
  }
  EXPECT_GT(mann_whitney(odd, even).p_value, 0.5);
  // Every value equal: no evidence either way.
  EXPECT_DOUBLE_EQ(mann_whitney(std::vector<double>(30, 5.0), std::vector<double>(20, 5.0)).p_value, 1.0);
}

TEST(MannWhitney, AnEmptySideIsNoEvidence) {
  EXPECT_DOUBLE_EQ(mann_whitney(std::vector<double>{}, std::vector<double>{1, 2}).p_value, 1.0);
}

}  // namespace
}  // namespace xb
