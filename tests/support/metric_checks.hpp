#pragma once
// Exact checks of a metric list, shared by the metric tests of latency_metrics and the jobs: the names and units in
// order, and the latency figures a known histogram must give (the same samples for every job, so
// each test checks its job's wiring and not the histogram again).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/histogram.hpp"
#include "core/result.hpp"

namespace xb::test {

// The metric named `name` in `metrics`; a test failure (and a null) when it is absent.
inline const Metric* find_in(const std::vector<Metric>& metrics, const std::string& name) {
  for (const Metric& m : metrics) {
    if (m.name == name) return &m;
  }
  ADD_FAILURE() << "no metric " << name;
  return nullptr;
}

inline double value_in(const std::vector<Metric>& metrics, const std::string& name) {
  const Metric* m = find_in(metrics, name);
  return m ? m->value : -1;
}

using NamesAndUnits = std::vector<std::pair<std::string, std::string>>;

// Names and units, exactly and in order: scripts, the compare gate and the dialects read them.
inline void expect_names_and_units(const std::vector<Metric>& metrics, const NamesAndUnits& expected) {
  NamesAndUnits got;
  for (const Metric& m : metrics) got.emplace_back(m.name, m.unit);
  EXPECT_EQ(got, expected);
}

// `before`, then the seven figures latency_metrics() states (PREFIX_min, _avg, _p50, _p90, _p99,
// _p99.9, _max, all in us; p2p and fleet name them "elapsed"), then `after`.
inline NamesAndUnits with_latencies(NamesAndUnits before, const std::string& prefix = "latency",
                                    const NamesAndUnits& after = {}) {
  for (const char* figure : {"_min", "_avg", "_p50", "_p90", "_p99", "_p99.9", "_max"}) {
    before.emplace_back(prefix + figure, "us");
  }
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

// 100 samples, 1 to 100 us in steps of 1 us, in ns as the jobs record them.
inline LatencyHistogram one_to_hundred_us() {
  LatencyHistogram h;
  for (std::uint64_t us = 1; us <= 100; ++us) h.record(us * 1000);
  return h;
}

// The latency_* metrics of `one_to_hundred_us()`: min, avg and max are exact (1, 50.5, 100 us);
// each percentile is the histogram's own read-back in us (exact, which tells p99 from p99.9), and
// within the bucket layout's read-back error (kBucketReadError, 1/128; tighter than the 2% the
// formula texts promise) of the true nearest-rank sample (50, 90, 99, 100 us).
inline void expect_one_to_hundred_us_latencies(const std::vector<Metric>& metrics) {
  const LatencyHistogram h = one_to_hundred_us();
  EXPECT_DOUBLE_EQ(value_in(metrics, "latency_min"), 1.0);
  EXPECT_DOUBLE_EQ(value_in(metrics, "latency_avg"), 50.5);
  EXPECT_DOUBLE_EQ(value_in(metrics, "latency_max"), 100.0);
  const std::vector<std::pair<std::string, std::pair<double, double>>> quantiles = {
      {"latency_p50", {0.50, 50.0}}, {"latency_p90", {0.90, 90.0}},
      {"latency_p99", {0.99, 99.0}}, {"latency_p99.9", {0.999, 100.0}}};
  for (const auto& [name, q_true] : quantiles) {
    const auto [q, true_us] = q_true;
    const double v = value_in(metrics, name);
    EXPECT_DOUBLE_EQ(v, static_cast<double>(h.percentile(q)) / 1e3) << name;
    EXPECT_NEAR(v, true_us, true_us * LatencyHistogram::kBucketReadError) << name;
  }
}

}  // namespace xb::test
