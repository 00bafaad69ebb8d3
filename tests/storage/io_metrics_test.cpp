// The io job's metrics from known totals (jobs/io/io_metrics.hpp): every figure's value, unit and
// name exactly. A real run's wall and CPU times are measurements; the consistency of the figures a
// real run stores is checked in io_job_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "jobs/io/io_metrics.hpp"
#include "support/metric_checks.hpp"

namespace xb {
namespace {

using test::value_in;

// 2 GiB in 131072 IOs of 16 KiB over 4 s, with 1.5 s user and 0.5 s system CPU time: every figure
// comes out exact in binary floating point, and no two are equal (a swap shows).
constexpr IoTotals kTotals{std::uint64_t{2} << 30, 131072, 4'000'000'000, 1.5, 0.5};

TEST(IoCaseMetrics, EveryFigureFromKnownTotals) {
  const auto m = io_case_metrics(kTotals, test::one_to_hundred_us());
  EXPECT_DOUBLE_EQ(value_in(m, "throughput"), 0.5);        // 2 GiB / 4 s
  EXPECT_DOUBLE_EQ(value_in(m, "iops"), 32768.0);          // 131072 IOs / 4 s
  EXPECT_DOUBLE_EQ(value_in(m, "ops"), 131072.0);
  EXPECT_DOUBLE_EQ(value_in(m, "bytes"), 2147483648.0);
  EXPECT_DOUBLE_EQ(value_in(m, "wall_time"), 4.0);
  EXPECT_DOUBLE_EQ(value_in(m, "cpu_user_time"), 1.5);
  EXPECT_DOUBLE_EQ(value_in(m, "cpu_sys_time"), 0.5);
  EXPECT_DOUBLE_EQ(value_in(m, "cpu_user"), 37.5);         // 1.5 s / 4 s, in %
  EXPECT_DOUBLE_EQ(value_in(m, "cpu_sys"), 12.5);          // 0.5 s / 4 s
  EXPECT_DOUBLE_EQ(value_in(m, "cpu_per_io"), 15.2587890625);  // 2 s / 131072 IOs, in us
  test::expect_one_to_hundred_us_latencies(m);
}

TEST(IoCaseMetrics, NamesAndUnitsInOrder) {
  test::expect_names_and_units(io_case_metrics(kTotals, test::one_to_hundred_us()),
                               test::with_latencies({{"throughput", "GiB/s"},
                                                     {"iops", "IO/s"},
                                                     {"ops", "IOs"},
                                                     {"bytes", "B"},
                                                     {"wall_time", "s"}},
                                                    "latency",
                                                    {{"cpu_user_time", "s"},
                                                     {"cpu_sys_time", "s"},
                                                     {"cpu_user", "%"},
                                                     {"cpu_sys", "%"},
                                                     {"cpu_per_io", "us"}}));
}

TEST(IoCaseMetrics, LatenciesArePerIoFromSubmitToCompletion) {
  const auto m = io_case_metrics(kTotals, test::one_to_hundred_us());
  EXPECT_EQ(test::find_in(m, "latency_min")->formula, "smallest IO latency (exact)");
  EXPECT_EQ(test::find_in(m, "latency_p50")->formula,
            "p50 per IO (submit to completion), from the log-linear histogram (< 2% error)");
}

// A run that did nothing in no time (every thread failed at once) divides by nothing.
TEST(IoCaseMetrics, ZeroWallTimeAndNoIosGiveZeroRates) {
  const auto m = io_case_metrics({0, 0, 0, 0.25, 0.125}, LatencyHistogram{});
  for (const char* name : {"throughput", "iops", "wall_time", "cpu_user", "cpu_sys", "cpu_per_io", "latency_min",
                           "latency_avg", "latency_p50", "latency_max"}) {
    EXPECT_EQ(value_in(m, name), 0.0) << name;
  }
  EXPECT_DOUBLE_EQ(value_in(m, "cpu_user_time"), 0.25);
  EXPECT_DOUBLE_EQ(value_in(m, "cpu_sys_time"), 0.125);
}

}  // namespace
}  // namespace xb
