// The latency figures every job states (src/core/latency_metrics.hpp), on a histogram of known
// values: each percentile within the histogram's stated read-back error of the exact nearest-rank
// value, min/max/avg exact, every figure in microseconds, named and in order.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/latency_metrics.hpp"

#include "support/metric_checks.hpp"

namespace xb {
namespace {

const Metric& metric(const std::vector<Metric>& metrics, const std::string& name) {
  static const Metric none{};
  const Metric* m = test::find_in(metrics, name);  // a test failure when absent
  return m != nullptr ? *m : none;
}

// 1..1000 us (recorded in ns, each with 7 ns more so no value sits on a bucket edge by luck):
// nearest-rank p50 = 500.007 us, p90 = 900.007, p99 = 990.007, p99.9 = 999.007.
LatencyHistogram one_to_a_thousand_us() {
  LatencyHistogram h;
  for (std::uint64_t i = 1000; i >= 1; --i) h.record(i * 1000 + 7);  // order does not matter
  return h;
}

TEST(LatencyMetrics, NamesUnitsAndOrder) {
  test::expect_names_and_units(latency_metrics(one_to_a_thousand_us(), "IO", "submit to completion"),
                               test::with_latencies({}));
}

TEST(LatencyMetrics, MinMaxAvgAreExactInMicroseconds) {
  const auto m = latency_metrics(one_to_a_thousand_us(), "IO", "submit to completion");
  EXPECT_DOUBLE_EQ(metric(m, "latency_min").value, 1.007);
  EXPECT_DOUBLE_EQ(metric(m, "latency_max").value, 1000.007);
  EXPECT_DOUBLE_EQ(metric(m, "latency_avg").value, 500.507);  // (1 + 1000) / 2 us + 7 ns
}

TEST(LatencyMetrics, EachPercentileIsItsOwnQuantileWithinTheStatedError) {
  const auto m = latency_metrics(one_to_a_thousand_us(), "IO", "submit to completion");
  const std::vector<std::pair<std::string, double>> exact = {
      {"latency_p50", 500.007}, {"latency_p90", 900.007}, {"latency_p99", 990.007}, {"latency_p99.9", 999.007}};
  for (const auto& [name, want] : exact) {
    EXPECT_NEAR(metric(m, name).value, want, want * LatencyHistogram::kBucketReadError) << name;
  }
}

TEST(LatencyMetrics, SmallLatenciesAreExactToTheNanosecond) {
  // Below 64 ns every value has a bucket of its own: the percentiles are exact.
  LatencyHistogram h;
  for (std::uint64_t v = 1; v <= 60; ++v) h.record(v);
  const auto m = latency_metrics(h, "block", "copy");
  EXPECT_DOUBLE_EQ(metric(m, "latency_p50").value, 0.030);
  EXPECT_DOUBLE_EQ(metric(m, "latency_p90").value, 0.054);
  EXPECT_DOUBLE_EQ(metric(m, "latency_p99").value, 0.060);
  EXPECT_DOUBLE_EQ(metric(m, "latency_min").value, 0.001);
  EXPECT_DOUBLE_EQ(metric(m, "latency_max").value, 0.060);
  EXPECT_DOUBLE_EQ(metric(m, "latency_avg").value, 0.0305);
}

TEST(LatencyMetrics, FormulasSayWhatASampleIsAndWhatItSpans) {
  const auto m = latency_metrics(one_to_a_thousand_us(), "block", "submit to completion");
  EXPECT_EQ(metric(m, "latency_min").formula, "smallest block latency (exact)");
  EXPECT_EQ(metric(m, "latency_avg").formula, "sum of block latencies / blocks (exact)");
  EXPECT_EQ(metric(m, "latency_p90").formula,
            "p90 per block (submit to completion), from the log-linear histogram (< 2% error)");
  EXPECT_EQ(metric(m, "latency_p99.9").formula,
            "p99.9 per block (submit to completion), from the log-linear histogram (< 2% error)");
}

TEST(LatencyMetrics, AnEmptyHistogramGivesZeros) {
  for (const Metric& m : latency_metrics(LatencyHistogram{}, "IO", "x")) EXPECT_EQ(m.value, 0.0) << m.name;
}

}  // namespace
}  // namespace xb
