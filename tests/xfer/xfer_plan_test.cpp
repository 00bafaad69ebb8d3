// The xfer plan: mode and op names, block-size lists and ranges, the validation rules, the
// throughput formula (HIXL's unit), and one case's metrics from known figures, each exact.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/size.hpp"
#include "jobs/xfer/xfer_metrics.hpp"
#include "jobs/xfer/xfer_plan.hpp"
#include "support/job_helpers.hpp"
#include "support/metric_checks.hpp"

namespace xb {
namespace {

using test::error_of;

TEST(XferPlan, ModeNamesRoundTripAndSayLocalThenRemote) {
  for (const char* name : {"d2d", "h2d", "d2h", "h2h"}) {
    const auto mode = xfer_mode_from(name);
    ASSERT_TRUE(mode.has_value()) << name;
    EXPECT_EQ(to_string(*mode), name);
  }
  const auto h2d = xfer_mode_from("h2d");
  EXPECT_EQ(h2d->local, RegionPlace::host);
  EXPECT_EQ(h2d->remote, RegionPlace::device);
  for (const char* bad : {"", "d2", "d2x", "x2d", "dtd", "d2d2", "D2D", "n2n"}) {
    EXPECT_FALSE(xfer_mode_from(bad).has_value()) << bad;
  }
}

TEST(XferPlan, OpNames) {
  EXPECT_EQ(xfer_op_from("write"), XferOp::write);
  EXPECT_EQ(xfer_op_from("read"), XferOp::read);
  EXPECT_FALSE(xfer_op_from("put").has_value());
  EXPECT_EQ(to_string(XferOp::read), "read");
}

TEST(XferPlan, BlockSizesAsListOrDoublingRange) {
  const std::uint64_t M = 1 << 20;
  EXPECT_EQ(parse_block_sizes("1M,2M,4M,8M", "--block"), (std::vector<std::uint64_t>{M, 2 * M, 4 * M, 8 * M}));
  EXPECT_EQ(parse_block_sizes("1M:8M", "--block"), (std::vector<std::uint64_t>{M, 2 * M, 4 * M, 8 * M}));
  EXPECT_EQ(parse_block_sizes("1M:3M", "--block"), (std::vector<std::uint64_t>{M, 2 * M}));
  EXPECT_EQ(parse_block_sizes("64K", "--block"), (std::vector<std::uint64_t>{64 * 1024}));
  for (const char* bad : {"", "8M:1M", "1M,,2M", "1M,", "1M,2M:4M", "0", "1X"}) {
    const std::string e = error_of([&] { parse_block_sizes(bad, "--block"); });
    EXPECT_NE(e.find("--block"), std::string::npos) << bad << ": " << e;
  }
}

XferPlan client_plan() {
  XferPlan p;
  p.role = XferRole::client;
  p.control = SocketAddress{"127.0.0.1", 20000};
  p.transport = "tcp";
  return p;
}

TEST(XferPlan, ValidationNamesTheFlagAndTheRule) {
  EXPECT_NO_THROW(validate_xfer_plan(client_plan()));
  {
    XferPlan p = client_plan();
    p.total = 8 << 20;
    p.blocks = {1 << 20, 16 << 20};
    const std::string e = error_of([&] { validate_xfer_plan(p); });
    EXPECT_NE(e.find("--block 16M: larger than --total 8M"), std::string::npos) << e;
  }
  {
    XferPlan p = client_plan();
    p.transport = "carrier-pigeon";
    const std::string e = error_of([&] { validate_xfer_plan(p); });
    EXPECT_EQ(e.rfind("--transport carrier-pigeon: expected one of", 0), 0u) << e;
    EXPECT_NE(e.find("tcp"), std::string::npos) << e;
  }
  {
    XferPlan p = client_plan();
    p.iters = 0;
    EXPECT_NE(error_of([&] { validate_xfer_plan(p); }).find("--iters"), std::string::npos);
  }
  {
    XferPlan p = client_plan();
    p.wait = std::chrono::milliseconds(0);
    EXPECT_NE(error_of([&] { validate_xfer_plan(p); }).find("--wait"), std::string::npos);
  }
  {
    XferPlan p = client_plan();
    p.control.port = 0;
    EXPECT_NE(error_of([&] { validate_xfer_plan(p); }).find("--peer"), std::string::npos);
  }
  {
    XferPlan p = client_plan();
    p.pool = true;
    p.pool_chunk = 0;
    EXPECT_NE(error_of([&] { validate_xfer_plan(p); }).find("--pool-chunk"), std::string::npos);
  }
  {
    // A dialect's names appear in the messages instead.
    XferPlan p = client_plan();
    p.total = 4 << 20;
    p.blocks = {8 << 20};
    const FlagWords names = native_flag_words().with({{"xfer.block", "block size"}, {"xfer.total", "kTransferMemSize"}});
    const std::string e = error_of([&] { validate_xfer_plan(p); }, names);
    EXPECT_NE(e.find("block size 8M: larger than kTransferMemSize 4M"), std::string::npos) << e;
  }
}

TEST(XferPlan, TransferCountIsWholeBlocks) {
  EXPECT_EQ(xfer_transfer_count(128 << 20, 8 << 20), 16u);
  EXPECT_EQ(xfer_transfer_count(10, 3), 3u);
}

TEST(XferMetrics, ThroughputIsBlockTimesCountOverTimeInGiBPerSecond) {
  // The seeds README's check: 8388608 B x 16 / 1044 us = 119.732 GiB/s.
  EXPECT_NEAR(xfer_throughput_gib_per_s(8388608, 16, 1044), 119.732, 0.0005);
  EXPECT_DOUBLE_EQ(xfer_throughput_gib_per_s(1 << 30, 1, 1e6), 1.0);
  EXPECT_EQ(xfer_throughput_gib_per_s(1, 1, 0), 0.0);
}

TEST(XferMetrics, OneCaseWithSeriesMetricsAndConfig) {
  XferPlan plan = client_plan();
  plan.mode = *xfer_mode_from("d2h");
  plan.op = XferOp::read;
  plan.pool = true;
  XferSetting s;
  s.transport = TransportInfo{"tcp", "1.0", "tcp", ""};
  s.peer = "127.0.0.1:20000";
  XferMeasurement m;
  m.block = 1 << 20;
  m.transfers = 128;
  m.time_us = {1000, 3000};
  m.latency = test::one_to_hundred_us();
  const CaseResult r = xfer_case_result(plan, s, m);
  EXPECT_EQ(r.job, "xfer");
  EXPECT_EQ(r.label("mode"), "d2h");
  EXPECT_EQ(r.label("op"), "read");
  EXPECT_EQ(r.label("pool"), "yes");
  EXPECT_EQ(r.config.at("transport").at("name"), "tcp");
  ASSERT_NE(r.find_series("time"), nullptr);
  EXPECT_DOUBLE_EQ(test::metric(r, "time_cost"), 2000);
  EXPECT_DOUBLE_EQ(test::metric(r, "throughput"), xfer_throughput_gib_per_s(1 << 20, 128, 2000));
  EXPECT_DOUBLE_EQ(test::metric(r, "transfers"), 128);
  EXPECT_DOUBLE_EQ(test::metric(r, "bytes"), 128.0 * (1 << 20));  // block x transfers, per timed pass
  test::expect_one_to_hundred_us_latencies(r.metrics);
  test::expect_names_and_units(r.metrics, test::with_latencies({{"transfers", "transfers"},
                                                                {"bytes", "B"},
                                                                {"time_cost", "us"},
                                                                {"throughput", "GiB/s"},
                                                                {"time_cost_median", "us"},
                                                                {"throughput_median", "GiB/s"}}));
  for (const Metric& metric : r.metrics) EXPECT_FALSE(metric.formula.empty()) << metric.name;
}

TEST(XferMetrics, NoLatencyPassNoLatencyMetrics) {
  XferMeasurement m;
  m.block = 4096;
  m.transfers = 3;
  m.time_us = {10};
  const CaseResult r = xfer_case_result(client_plan(), XferSetting{}, m);
  std::vector<std::string> names;
  for (const Metric& metric : r.metrics) names.push_back(metric.name);
  EXPECT_EQ(names, (std::vector<std::string>{"transfers", "bytes", "time_cost", "throughput", "time_cost_median",
                                             "throughput_median"}));
  EXPECT_DOUBLE_EQ(test::metric(r, "bytes"), 3 * 4096);
}

// A client's --total beyond memory is refused from the plan alone, before anything is allocated.
TEST(XferPlan, ATotalBeyondMemoryIsRefusedNamingTheFlag) {
  XferPlan p;
  p.total = available_memory_bytes() + (std::uint64_t{1} << 30);
  p.mode.local = RegionPlace::host;
  const std::string e = error_of([&] { check_xfer_memory(p, true); });
  EXPECT_EQ(e.rfind("--total " + format_size(p.total) + ": this client needs ", 0), 0u) << e;
  // Device memory off host RAM (a GPU's) takes none of it; a server sizes by its client's asks.
  p.mode.local = RegionPlace::device;
  EXPECT_NO_THROW(check_xfer_memory(p, false));
  EXPECT_THROW(check_xfer_memory(p, true), MachineLimit);  // a limit of this machine: exit 3
  p.role = XferRole::server;
  EXPECT_NO_THROW(check_xfer_memory(p, true));
  EXPECT_NO_THROW(check_xfer_memory(XferPlan{}, true));
}

}  // namespace
}  // namespace xb
