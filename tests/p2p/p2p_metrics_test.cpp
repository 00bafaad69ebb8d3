// The p2p pair case's metrics from a hand-built ElapsedRecord: every elapsed figure against the
// executions it was given (min and max exact, the percentiles within the error the histogram's
// layout guarantees, the average from the exact sum), the bandwidths for a known size and time, one
// way and both ways, and every name and unit in order.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/histogram.hpp"
#include "core/result.hpp"
#include "jobs/p2p/p2p_metrics.hpp"
#include "support/job_helpers.hpp"
#include "support/metric_checks.hpp"

namespace xb {
namespace {

// A percentile is held to what the histogram's layout guarantees (1/128), not the 2% promised to
// users: a bound a bucket wide would let a read-back from the bucket's edge pass.
constexpr double kReadError = LatencyHistogram::kBucketReadError;

ElapsedRecord elapsed_of(const std::vector<double>& us) {
  ElapsedRecord e;
  for (double v : us) e.add(v);
  return e;
}

CaseResult case_of(const std::vector<Metric>& metrics) {
  CaseResult c;
  c.metrics = metrics;
  return c;
}

TEST(P2pMetrics, ElapsedFiguresOfKnownExecutions) {
  std::vector<double> us;
  for (int i = 1; i <= 100; ++i) us.push_back(i);  // 1 .. 100 us
  const CaseResult c = case_of(p2p_metrics(elapsed_of(us), 1 << 20, false));
  EXPECT_DOUBLE_EQ(test::metric(c, "elapsed_min"), 1);
  EXPECT_DOUBLE_EQ(test::metric(c, "elapsed_avg"), 50.5);
  EXPECT_DOUBLE_EQ(test::metric(c, "elapsed_max"), 100);
  // Nearest rank of 100 values: the 50th, 90th, 99th and 100th (ceil(99.9)).
  const std::pair<const char*, double> percentiles[] = {
      {"elapsed_p50", 50}, {"elapsed_p90", 90}, {"elapsed_p99", 99}, {"elapsed_p99.9", 100}};
  for (const auto& [name, expected] : percentiles) {
    EXPECT_NEAR(test::metric(c, name), expected, expected * kReadError) << name;
  }
  EXPECT_EQ(test::metric(c, "executions"), 100.0);
}

TEST(P2pMetrics, AverageIsTheExactSumNotTheHistogramsWholeNanoseconds) {
  // 1.2346 us is recorded as 1235 ns: the histogram's mean would be 1.6175, not 1.6173.
  const CaseResult c = case_of(p2p_metrics(elapsed_of({1.2346, 2.0}), 4096, false));
  EXPECT_DOUBLE_EQ(test::metric(c, "elapsed_avg"), (1.2346 + 2.0) / 2);
  EXPECT_DOUBLE_EQ(test::metric(c, "elapsed_min"), 1.235);
  EXPECT_DOUBLE_EQ(test::metric(c, "elapsed_max"), 2.0);
}

TEST(P2pMetrics, BandwidthOfAKnownSizeAndTime) {
  // 2,000,000 B per execution in 1000 us on average (500 and 1500).
  const CaseResult one = case_of(p2p_metrics(elapsed_of({500, 1500}), 2'000'000, false));
  EXPECT_DOUBLE_EQ(test::metric(one, "bandwidth"), 2.0);                      // 2e9 B/s, decimal GB/s
  EXPECT_DOUBLE_EQ(test::metric(one, "bandwidth_gib"), 2e9 / 1073741824.0);  // 1.8626 GiB/s
  EXPECT_EQ(one.find_metric("bandwidth")->formula,
            "size / elapsed_avg, GB = 10^9 bytes (ascend-dmi's Bandwidth(GB/s))");
}

TEST(P2pMetrics, BidirectionalCountsBothDirections) {
  // The same executions moving size each way: twice the bytes, twice the bandwidth.
  const CaseResult both = case_of(p2p_metrics(elapsed_of({500, 1500}), 2'000'000, true));
  EXPECT_DOUBLE_EQ(test::metric(both, "bandwidth"), 4.0);
  EXPECT_DOUBLE_EQ(test::metric(both, "bandwidth_gib"), 4e9 / 1073741824.0);
  EXPECT_DOUBLE_EQ(test::metric(both, "elapsed_avg"), 1000) << "the time is not doubled";
  EXPECT_EQ(both.find_metric("bandwidth")->formula.rfind("2 * size (both directions at once) / elapsed_avg", 0), 0u);
  EXPECT_DOUBLE_EQ(p2p_bytes_per_execution(2'000'000, true), 4e6);
  EXPECT_DOUBLE_EQ(p2p_bytes_per_execution(2'000'000, false), 2e6);
}

TEST(P2pMetrics, NamesAndUnitsInOrder) {
  const std::vector<Metric> m = p2p_metrics(elapsed_of({10, 20, 30}), 1 << 20, true);
  test::expect_names_and_units(m, test::with_latencies({{"bandwidth", "GB/s"}, {"bandwidth_gib", "GiB/s"}}, "elapsed",
                                                        {{"executions", "executions"}}));
  for (const Metric& x : m) EXPECT_FALSE(x.formula.empty()) << x.name;
}

}  // namespace
}  // namespace xb
