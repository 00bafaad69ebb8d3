// xb::summarize and xb::quantile_sorted (src/core/stats.hpp) on small inputs worked out by hand:
// percentiles interpolate linearly between ranks (numpy's "linear"), stddev is the population one.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/stats.hpp"

namespace xb {
namespace {

constexpr double kTol = 1e-12;

TEST(Summarize, TwoSamplesInterpolateBetweenRanks) {
  const std::vector<double> v{1.0, 2.0};
  const Summary s = summarize(v);
  EXPECT_EQ(s.count, 2u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 2.0);
  EXPECT_DOUBLE_EQ(s.avg, 1.5);
  EXPECT_NEAR(s.p50, 1.5, kTol);   // rank 0.5
  EXPECT_NEAR(s.p90, 1.9, kTol);   // rank 0.9
  EXPECT_NEAR(s.p99, 1.99, kTol);  // rank 0.99
  EXPECT_NEAR(s.stddev, 0.5, kTol);  // population: sqrt(((-.5)^2 + .5^2) / 2)
}

TEST(Summarize, FiveSamples) {
  const std::vector<double> v{1, 2, 3, 4, 5};
  const Summary s = summarize(v);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.avg, 3);
  EXPECT_NEAR(s.p50, 3.0, kTol);   // rank 2 exactly
  EXPECT_NEAR(s.p90, 4.6, kTol);   // rank 3.6: 4 + 0.6 * (5 - 4)
  EXPECT_NEAR(s.p99, 4.96, kTol);  // rank 3.96
  EXPECT_NEAR(s.stddev, std::sqrt(2.0), kTol);  // variance (4+1+0+1+4)/5 = 2
}

TEST(Summarize, PopulationNotSampleStddev) {
  // The textbook set whose population stddev is exactly 2 (the sample stddev would be 2.138...).
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.avg, 5);
  EXPECT_NEAR(s.stddev, 2.0, kTol);
  EXPECT_NEAR(s.p50, 4.5, kTol);   // rank 3.5 between 4 and 5
  EXPECT_NEAR(s.p90, 7.6, kTol);   // rank 6.3: 7 + 0.3 * (9 - 7)
  EXPECT_NEAR(s.p99, 8.86, kTol);  // rank 6.93: 7 + 0.93 * 2
}

TEST(Summarize, UnsortedInputGivesTheSameSummaryAsSorted) {
  const std::vector<double> unsorted{5, 1, 4, 2, 3};
  const std::vector<double> sorted{1, 2, 3, 4, 5};
  const Summary a = summarize(unsorted);
  const Summary b = summarize(sorted);
  EXPECT_DOUBLE_EQ(a.min, 1);
  EXPECT_DOUBLE_EQ(a.max, 5);
  EXPECT_NEAR(a.p90, 4.6, kTol);
  EXPECT_DOUBLE_EQ(a.avg, b.avg);
  EXPECT_DOUBLE_EQ(a.p50, b.p50);
  EXPECT_DOUBLE_EQ(a.p90, b.p90);
  EXPECT_DOUBLE_EQ(a.p99, b.p99);
  EXPECT_DOUBLE_EQ(a.stddev, b.stddev);
  // The input is not reordered in place.
  EXPECT_EQ(unsorted, (std::vector<double>{5, 1, 4, 2, 3}));
}

TEST(Summarize, NegativeValues) {
  const std::vector<double> v{3, -3};
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.min, -3);
  EXPECT_DOUBLE_EQ(s.max, 3);
  EXPECT_DOUBLE_EQ(s.avg, 0);
  EXPECT_NEAR(s.p50, 0, kTol);
  EXPECT_NEAR(s.stddev, 3, kTol);
}

TEST(Summarize, SingleSampleIsEveryStatistic) {
  const std::vector<double> v{7.25};
  const Summary s = summarize(v);
  EXPECT_EQ(s.count, 1u);
  for (double x : {s.min, s.max, s.avg, s.p50, s.p90, s.p99}) EXPECT_DOUBLE_EQ(x, 7.25);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
}

TEST(Summarize, EmptySpanIsAllZero) {
  const Summary s = summarize(std::span<const double>{});
  EXPECT_EQ(s.count, 0u);
  for (double x : {s.min, s.max, s.avg, s.p50, s.p90, s.p99, s.stddev}) {
    EXPECT_DOUBLE_EQ(x, 0);
    EXPECT_FALSE(std::isnan(x));
  }
}

TEST(QuantileSorted, EndsAndInterior) {
  const std::vector<double> v{10, 20, 30, 40, 50};
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.0), 10);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 1.0), 50);
  EXPECT_NEAR(quantile_sorted(v, 0.25), 20, kTol);   // rank 1
  EXPECT_NEAR(quantile_sorted(v, 0.3), 22, kTol);    // rank 1.2
  EXPECT_NEAR(quantile_sorted(v, 0.875), 45, kTol);  // rank 3.5
  EXPECT_DOUBLE_EQ(quantile_sorted(std::span<const double>{}, 0.5), 0);
}

}  // namespace
}  // namespace xb
