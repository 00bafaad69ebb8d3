// The kv job's metrics from known totals (jobs/kv/kv_metrics.hpp): every figure's value, unit and
// name exactly. A real run's wall and sync times are measurements; the consistency of the figures a
// real run stores is checked in kv_job_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "jobs/kv/kv_metrics.hpp"
#include "support/metric_checks.hpp"

namespace xb {
namespace {

using test::value_in;

// 8 blocks of 512 MiB (4 GiB) in 2 s, of which the end sync took 0.5 s: every figure comes out
// exact in binary floating point, and no two are equal (a swap shows).
constexpr std::uint64_t kBytes = std::uint64_t{4} << 30;
constexpr KvTotals kDump{8, kBytes, 2'000'000'000, 500'000'000};

constexpr const char* kSpan = "mkdir, create the temporary, pwrite, rename";

TEST(KvCaseMetrics, EveryFigureFromKnownTotals) {
  const auto m = kv_case_metrics(kDump, test::one_to_hundred_us(), kSpan);
  EXPECT_DOUBLE_EQ(value_in(m, "blocks_per_s"), 4.0);              // 8 blocks / 2 s
  EXPECT_DOUBLE_EQ(value_in(m, "bandwidth"), 2.0);                 // 4 GiB / 2 s
  EXPECT_DOUBLE_EQ(value_in(m, "bandwidth_decimal"), 2.147483648); // 4 * 2^30 B / 2 s / 1e9
  EXPECT_DOUBLE_EQ(value_in(m, "blocks"), 8.0);
  EXPECT_DOUBLE_EQ(value_in(m, "bytes"), 4294967296.0);
  EXPECT_DOUBLE_EQ(value_in(m, "wall_time"), 2.0);
  EXPECT_DOUBLE_EQ(value_in(m, "sync_time"), 0.5);
  test::expect_one_to_hundred_us_latencies(m);
}

TEST(KvCaseMetrics, NamesAndUnitsInOrder) {
  test::expect_names_and_units(kv_case_metrics(kDump, test::one_to_hundred_us(), kSpan),
                               test::with_latencies({{"blocks_per_s", "blocks/s"},
                                                     {"bandwidth", "GiB/s"},
                                                     {"bandwidth_decimal", "GB/s"},
                                                     {"blocks", "blocks"},
                                                     {"bytes", "B"},
                                                     {"wall_time", "s"},
                                                     {"sync_time", "s"}}));
}

// A load has no sync: no sync_time at all (not a zero), and the rest is unchanged.
TEST(KvCaseMetrics, LoadHasNoSyncTime) {
  const KvTotals load{kDump.blocks, kDump.bytes, kDump.wall_ns, std::nullopt};
  const auto m = kv_case_metrics(load, test::one_to_hundred_us(), "open, pread into host memory");
  for (const Metric& x : m) EXPECT_NE(x.name, "sync_time");
  EXPECT_EQ(m.size(), 13u);
  EXPECT_DOUBLE_EQ(value_in(m, "bandwidth"), 2.0);
}

TEST(KvCaseMetrics, LatenciesArePerBlockOverTheGivenSpan) {
  const auto m = kv_case_metrics(kDump, test::one_to_hundred_us(), kSpan);
  EXPECT_EQ(test::find_in(m, "latency_avg")->formula, "sum of block latencies / blocks (exact)");
  EXPECT_EQ(test::find_in(m, "latency_p90")->formula,
            "p90 per block (mkdir, create the temporary, pwrite, rename), from the log-linear histogram (< 2% error)");
}

TEST(KvCaseMetrics, ZeroWallTimeGivesZeroRates) {
  const auto m = kv_case_metrics({3, 3000, 0, 0}, LatencyHistogram{}, kSpan);
  for (const char* name : {"blocks_per_s", "bandwidth", "bandwidth_decimal", "wall_time", "sync_time"}) {
    EXPECT_EQ(value_in(m, name), 0.0) << name;
  }
  EXPECT_DOUBLE_EQ(value_in(m, "blocks"), 3.0);
  EXPECT_DOUBLE_EQ(value_in(m, "bytes"), 3000.0);
}

}  // namespace
}  // namespace xb
