// The HIXL dialect against the seed document (shared/seeds/003): the seed's line rendered byte for
// byte from its raw figures (block, transfer num, time cost) through the xfer job's own result
// builder and throughput function, the seed's command lines parsed onto the plan, and the server's
// two lines from hand-built values.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "dialects/hixl.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "jobs/xfer/xfer_metrics.hpp"
#include "support/job_helpers.hpp"

namespace xb {
namespace {

using test::error_of;

const std::vector<std::string> kSeedClient{"0", "10.10.10.0", "10.10.10.0:16000", "20000", "d2d", "write", "false"};
const std::vector<std::string> kSeedServer{"1", "10.10.10.0:16000", "10.10.10.0", "20000", "d2d", "write", "false"};

HixlSettings tcp_settings() {
  HixlSettings s;
  s.transport = "tcp";
  return s;
}

TEST(HixlGolden, RendersTheSeedLineFromItsRawFigures) {
  XferPlan plan = parse_hixl(kSeedClient, tcp_settings());
  XferSetting setting;
  setting.transport = TransportInfo{"tcp", "x", "tcp", ""};
  XferMeasurement m;
  m.block = 8388608;
  m.transfers = 16;
  m.time_us = {1044};
  EXPECT_EQ(render_hixl_line(xfer_case_result(plan, setting, m)),
            "[INFO] Transfer success, block size: 8388608 Bytes, transfer num: 16, time cost: 1044 us, throughput: "
            "119.732 GB/s\n");
}

// Several timed passes: the line prints the median one (and its throughput), not the mean, so one
// slow pass does not move the figure; every pass stays in the time series.
TEST(HixlGolden, TheLineIsTheMedianOfTheTimedPasses) {
  XferPlan plan = parse_hixl(kSeedClient, tcp_settings());
  EXPECT_EQ(plan.iters, kHixlDefaultPasses);
  XferSetting setting;
  setting.transport = TransportInfo{"tcp", "x", "tcp", ""};
  XferMeasurement m;
  m.block = 8388608;
  m.transfers = 16;
  m.time_us = {1044, 9000, 1040, 1050, 1044};  // one pass 9x slower
  const CaseResult c = xfer_case_result(plan, setting, m);
  EXPECT_EQ(render_hixl_line(c),
            "[INFO] Transfer success, block size: 8388608 Bytes, transfer num: 16, time cost: 1044 us, throughput: "
            "119.732 GB/s\n");
  ASSERT_NE(c.find_series("time"), nullptr);
  EXPECT_EQ(c.find_series("time")->summary.max, 9000);
  EXPECT_GT(c.find_metric("time_cost")->value, 2000);  // the mean moved; the median did not
  HixlSettings more = tcp_settings();
  more.passes = 9;
  EXPECT_EQ(parse_hixl(kSeedClient, more).iters, 9u);
}

TEST(HixlGolden, TimeCostIsWholeMicroseconds) {
  XferPlan plan = parse_hixl(kSeedClient, tcp_settings());
  XferMeasurement m;
  m.block = 1048576;
  m.transfers = 128;
  m.time_us = {4000.6};
  const std::string line = render_hixl_line(xfer_case_result(plan, XferSetting{}, m));
  EXPECT_NE(line.find("time cost: 4001 us"), std::string::npos) << line;
  EXPECT_NE(line.find("transfer num: 128,"), std::string::npos) << line;
}

// The server's two lines (HIXL's document shows none; docs/xfer.md fixes them), from hand-built
// values: the control port and the local engine's address as announced, then the client and what
// it asked for.
TEST(HixlGolden, ServerReadyNamesTheTcpPortAndTheLocalEngine) {
  EXPECT_EQ(render_hixl_server_ready(20000, "10.10.10.0:16000"),
            "[INFO] Server ready, tcp port: 20000, local engine: 10.10.10.0:16000\n");
  EXPECT_EQ(render_hixl_server_ready(1, "[::1]:65535"), "[INFO] Server ready, tcp port: 1, local engine: [::1]:65535\n");
}

TEST(HixlGolden, ServerDoneNamesTheClientItsRegionsAndBytes) {
  CaseResult served;
  served.job = "xfer";
  served.name = "server";
  XferServerConfig config;
  config.client = "10.10.10.0:40000";
  served.config = config;
  served.metrics = {{"regions", 2, "regions", ""}, {"exposed_bytes", 8392704, "B", ""}};
  EXPECT_EQ(render_hixl_server_done(served),
            "[INFO] Server finished, remote engine: 10.10.10.0:40000, regions: 2, bytes: 8392704\n");
}

TEST(HixlGolden, SeedClientCommandLine) {
  const XferPlan p = parse_hixl(kSeedClient, tcp_settings());
  EXPECT_EQ(p.role, XferRole::client);
  EXPECT_EQ(p.device, 0);
  EXPECT_EQ(p.control.to_string(), "10.10.10.0:20000");  // remote ip : tcp_port
  EXPECT_EQ(to_string(p.mode), "d2d");
  EXPECT_EQ(p.op, XferOp::write);
  EXPECT_FALSE(p.pool);
  EXPECT_EQ(p.total, kXferDefaultTotal);
  EXPECT_EQ(p.wait, std::chrono::milliseconds(20000));
  // HIXL's kBaseBlockSize (256K) << i, i = 0..5.
  EXPECT_EQ(p.blocks, (std::vector<std::uint64_t>{256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20}));
  EXPECT_NO_THROW(validate_xfer_plan(p));
}

TEST(HixlGolden, SeedServerCommandLine) {
  const XferPlan p = parse_hixl(kSeedServer, tcp_settings());
  EXPECT_EQ(p.role, XferRole::server);
  EXPECT_EQ(p.device, 1);
  EXPECT_EQ(p.control.to_string(), "10.10.10.0:20000");  // local ip : tcp_port
  EXPECT_EQ(p.data.to_string(), "10.10.10.0:16000");     // the local engine: the transport's listener
}

TEST(HixlGolden, OtherModesOpsAndThePool) {
  const XferPlan p = parse_hixl({"3", "10.10.10.0", "10.10.10.1:16000", "20001", "h2d", "read", "true"}, tcp_settings());
  EXPECT_EQ(to_string(p.mode), "h2d");
  EXPECT_EQ(p.op, XferOp::read);
  EXPECT_TRUE(p.pool);
  EXPECT_EQ(p.control.to_string(), "10.10.10.1:20001");
}

// HIXL-CS's eight arguments: the communication resources in place of the pool; their protocol
// picks the path; its benchmark's 1M-8M ladder. A ninth (the exception benchmark's test case) and
// the UB protocols are absent hardware here, never bad input.
TEST(HixlGolden, TheCommResFormMapsOntoThePlan) {
  const auto res = [](const char* location, const char* protocol) {
    return fmt::format(R"({{"location":"{}","protocol":"{}","addr":"10.10.10.0"}})", location, protocol);
  };
  const auto client = [&](const std::string& mode, const std::string& local, const std::string& remote) {
    return std::vector<std::string>{"0", "10.10.10.0", "10.10.10.1:16000", "20000", mode, "read", local, remote};
  };
  HixlForm form;
  const XferPlan c = parse_hixl(client("d2h", res("device", "hccs"), res("host", "hccs")), tcp_settings(), &form);
  EXPECT_EQ(c.role, XferRole::client);
  EXPECT_EQ(to_string(c.mode), "d2h");
  EXPECT_EQ(c.op, XferOp::read);
  EXPECT_FALSE(c.pool);
  EXPECT_EQ(c.blocks, (std::vector<std::uint64_t>{1 << 20, 2 << 20, 4 << 20, 8 << 20}));
  EXPECT_TRUE(form.comm_res);
  EXPECT_FALSE(form.network_path);
  parse_hixl(client("h2h", res("host", "roce"), R"({"protocol":"roce"})"), tcp_settings(), &form);
  EXPECT_TRUE(form.network_path);
  // The server's local resource is the mode's second letter.
  const XferPlan srv = parse_hixl({"1", "10.10.10.1:16000", "10.10.10.0", "20000", "d2h", "read", res("host", "hccs"),
                                   res("device", "hccs")},
                                  tcp_settings());
  EXPECT_EQ(srv.role, XferRole::server);
  EXPECT_TRUE(srv.server_plan);

  const auto usage = [&](const std::vector<std::string>& args, const std::string& says) {
    try {
      parse_hixl(args, tcp_settings());
      ADD_FAILURE() << "accepted: " << says;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  usage(client("d2h", res("host", "hccs"), res("host", "hccs")), "local_comm_res: location host, but transfer_mode d2h");
  usage(client("d2h", res("device", "hccs"), res("host", "roce")), "protocols hccs and roce");
  usage(client("d2h", "{not json", res("host", "hccs")), "local_comm_res {not json: expected a JSON object");
  usage(client("d2h", res("device", "nvlink"), res("host", "hccs")), "protocol nvlink: expected hccs, roce");
  EXPECT_THROW(parse_hixl(client("d2h", res("device", "ub_tp"), res("host", "ub_tp")), tcp_settings()), Unavailable);
  auto nine = client("d2h", res("device", "hccs"), res("host", "hccs"));
  nine.push_back("link_down");
  EXPECT_THROW(parse_hixl(nine, tcp_settings()), Unavailable);
}

TEST(HixlGolden, BadArgumentsNameHixlsArguments) {
  const struct {
    std::vector<std::string> args;
    const char* names;
  } cases[] = {
      {{"0", "10.10.10.0", "10.10.10.0:16000", "20000", "d2d", "write"}, "expected 7 arguments, got 6"},
      {{"x", "10.10.10.0", "10.10.10.0:16000", "20000", "d2d", "write", "false"}, "device_id"},
      {{"0", "10.10.10.0", "10.10.10.0", "20000", "d2d", "write", "false"}, "local_engine"},
      {{"0", "10.10.10.0:1", "10.10.10.0:16000", "20000", "d2d", "write", "false"}, "remote_engine"},
      {{"0", "10.10.10.0", "10.10.10.0:16000", "0", "d2d", "write", "false"}, "tcp_port"},
      {{"0", "10.10.10.0", "10.10.10.0:16000", "70000", "d2d", "write", "false"}, "tcp_port"},
      {{"0", "10.10.10.0", "10.10.10.0:99999", "20000", "d2d", "write", "false"}, "remote_engine"},
      {{"0", "10.10.10.0", "10.10.10.0:16000", "20000", "d2x", "write", "false"}, "transfer_mode d2x"},
      {{"0", "10.10.10.0", "10.10.10.0:16000", "20000", "d2d", "copy", "false"}, "transfer_op copy"},
      {{"0", "10.10.10.0", "10.10.10.0:16000", "20000", "d2d", "write", "yes"}, "use_buffer_pool"},
  };
  for (const auto& c : cases) {
    const std::string e = error_of([&] { parse_hixl(c.args, tcp_settings()); });
    EXPECT_NE(e.find(c.names), std::string::npos) << c.names << ": " << e;
  }
  // Every one of them is bad input (exit 2), not a run failure.
  EXPECT_THROW(parse_hixl({"0"}, tcp_settings()), UsageError);
}

}  // namespace
}  // namespace xb
