// The HIXL dialect end to end: a server and a client started with HIXL's own seven arguments, both
// through `xferbench hixl` and through the `hixl` and `benchmark` links (HIXL's README runs
// ./benchmark), their lines parsed. XFERBENCH_HIXL_TOTAL
// keeps the runs small (HIXL's kTransferMemSize, set without a rebuild).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "transport/transport.hpp"
#include "xfer_processes.hpp"

namespace xb {
namespace {

struct HixlCase {
  std::string transport, mode, op, pool;
  std::string link;  // through this link name (hixl, benchmark) instead of `xferbench hixl`
};

std::string hixl_case_name(const ::testing::TestParamInfo<HixlCase>& info) {
  const auto& c = info.param;
  return c.transport + "_" + c.mode + "_" + c.op + (c.pool == "true" ? "_pool" : "") + (c.link.empty() ? "" : "_" + c.link);
}

class HixlCli : public ::testing::TestWithParam<HixlCase> {};

TEST_P(HixlCli, ClientPrintsOneSeedLinePerBlockSizeServerItsTwoLines) {
  const HixlCase& c = GetParam();
  bool built = false;
  for (const auto& n : transport_names()) built = built || n == c.transport;
  if (!built) GTEST_SKIP() << c.transport << " is not built here";

  xbtest::RunOptions options = xbtest::default_options();
  options.env = {"XFERBENCH_HIXL_TOTAL=8M", "XFERBENCH_HIXL_WAIT=20", "XFERBENCH_HIXL_TRANSPORT=" + c.transport};
  const std::string port = std::to_string(test::free_tcp_port());
  const std::string program =
      c.link.empty() ? std::string(XB_BINARY) : (std::filesystem::path(XB_HIXL_LINK).parent_path() / c.link).string();
  const auto args = [&](std::vector<std::string> a) {
    if (c.link.empty()) a.insert(a.begin(), "hixl");
    return a;
  };
  // Server: local engine ip:port (port 0: any, announced), remote engine ip; client: the reverse.
  auto server = xbtest::start_binary(program, args({"1", "127.0.0.1:0", "127.0.0.1", port, c.mode, c.op, c.pool}), options);
  const auto client =
      xbtest::run_binary(program, args({"0", "127.0.0.1", "127.0.0.1:16000", port, c.mode, c.op, c.pool}), options);
  ASSERT_TRUE(client.exited && client.exit_code == 0) << client.describe();

  const std::regex line(
      R"(\[INFO\] Transfer success, block size: (\d+) Bytes, transfer num: (\d+), time cost: (\d+) us, throughput: (\d+\.\d{3}) GB/s)");
  const auto lines = xbtest::split_lines(client.out);
  ASSERT_EQ(lines.size(), 6u) << client.out;  // HIXL's 256K << k, k = 0..5
  for (std::size_t k = 0; k < 6; ++k) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(lines[k], m, line)) << lines[k];
    const std::uint64_t block = std::stoull(m[1]), num = std::stoull(m[2]), us = std::stoull(m[3]);
    EXPECT_EQ(block, (256ull << 10) << k);
    EXPECT_EQ(num, (8ull << 20) / block);
    // The throughput agrees with the printed figures (time cost is rounded to whole microseconds).
    const double gib = std::stod(m[4]);
    if (us >= 10) {
      const double lo = static_cast<double>(block * num) / ((static_cast<double>(us) + 0.5) / 1e6) / (1 << 30);
      const double hi = static_cast<double>(block * num) / ((static_cast<double>(us) - 0.5) / 1e6) / (1 << 30);
      EXPECT_GE(gib, lo - 0.0005) << lines[k];
      EXPECT_LE(gib, hi + 0.0005) << lines[k];
    }
  }

  const auto served = server.wait_for(std::chrono::seconds(60));
  ASSERT_TRUE(served.has_value()) << "the server did not end";
  ASSERT_TRUE(served->exited && served->exit_code == 0) << served->describe();
  const auto server_lines = xbtest::split_lines(served->out);
  ASSERT_EQ(server_lines.size(), 2u) << served->out;
  // The local engine asked for port 0: the line announces the port the transport got, not 0 and not
  // the control channel's.
  std::smatch ready;
  ASSERT_TRUE(std::regex_match(server_lines[0], ready,
                               std::regex(R"(\[INFO\] Server ready, tcp port: (\d+), local engine: 127\.0\.0\.1:(\d+))")))
      << server_lines[0];
  EXPECT_EQ(ready[1].str(), port);
  EXPECT_NE(ready[2].str(), "0") << server_lines[0];
  EXPECT_NE(ready[2].str(), port) << server_lines[0];
  // The client asks for one region of its whole total (XFERBENCH_HIXL_TOTAL=8M).
  EXPECT_TRUE(std::regex_match(server_lines[1],
                               std::regex(R"(\[INFO\] Server finished, remote engine: 127\.0\.0\.1:\d+, regions: 1, bytes: 8388608)")))
      << server_lines[1];
}

// HIXL's server is started with its mode, op and pool: a client with another plan is refused, both
// named, and the server goes on waiting for the right one (here none comes: it ends after the wait).
TEST(HixlServer, RefusesAClientWhosePlanDiffersNamingBoth) {
  xbtest::RunOptions options = xbtest::default_options();
  options.env = {"XFERBENCH_HIXL_TOTAL=8M", "XFERBENCH_HIXL_WAIT=3", "XFERBENCH_HIXL_TRANSPORT=tcp"};
  const std::string port = std::to_string(test::free_tcp_port());
  const std::string program = (std::filesystem::path(XB_HIXL_LINK).parent_path() / "benchmark").string();
  auto server = xbtest::start_binary(program, {"1", "127.0.0.1:0", "127.0.0.1", port, "d2d", "write", "false"}, options);
  const auto client = xbtest::run_binary(program, {"0", "127.0.0.1", "127.0.0.1:16000", port, "h2d", "read", "true"},
                                         options);
  ASSERT_TRUE(client.exited && client.exit_code == 1) << client.describe();
  EXPECT_NE(client.err.find("refused this client: this server runs d2d write, no buffer pool; this client asked for "
                            "h2d read, buffer pool"),
            std::string::npos)
      << client.err;
  EXPECT_TRUE(client.out.empty()) << client.out;
  const auto served = server.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(served.has_value()) << "the server did not end";
  EXPECT_TRUE(served->exited && served->exit_code == 1) << served->describe();
  EXPECT_NE(served->err.find("the client asked for h2d read, buffer pool, this server runs d2d write, no buffer pool"),
            std::string::npos)
      << served->err;
}

// HCCL_INTRA_ROCE_ENABLE=1 forces the network path (RDMA where UCX has an RDMA device, else tcp);
// without it UCX takes the intra-node path. The client says which, after its lines, from the lanes
// the transport reports.
TEST(HixlPath, RoceEnableForcesTheNetworkPathAndTheNoteSaysWhichMovedTheData) {
  bool ucx = false;
  for (const auto& n : transport_names()) ucx = ucx || n == "ucx";
  if (!ucx) GTEST_SKIP() << "ucx is not built here";
  const std::string program = (std::filesystem::path(XB_HIXL_LINK).parent_path() / "benchmark").string();
  const std::string roce_res = R"({"location":"host","protocol":"roce","addr":"127.0.0.1"})";
  const struct {
    const char* name;
    bool env;                       // HCCL_INTRA_ROCE_ENABLE=1
    std::vector<std::string> tail;  // after transfer_op: use_buffer_pool, or HIXL-CS's two resources
    const char* note;
  } cases[] = {
      {"unset", false, {"false"}, "benchmark: the intra-node path moved the data: ucx over "},
      {"HCCL_INTRA_ROCE_ENABLE=1", true, {"false"},
       "benchmark: the network path (HCCL_INTRA_ROCE_ENABLE=1) moved the data: ucx over "},
      {"comm res roce", false, {roce_res, roce_res}, "benchmark: the network path (protocol roce) moved the data: ucx over "},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    xbtest::RunOptions options = xbtest::default_options();
    options.env = {"XFERBENCH_HIXL_TOTAL=8M", "XFERBENCH_HIXL_WAIT=20", "XFERBENCH_HIXL_TRANSPORT=ucx",
                   "XFERBENCH_HIXL_PASSES=1"};
    options.unset_env = {"UCX_TLS", "HCCL_INTRA_ROCE_ENABLE"};
    if (c.env) options.env.push_back("HCCL_INTRA_ROCE_ENABLE=1");
    const std::string port = std::to_string(test::free_tcp_port());
    std::vector<std::string> server_args{"1", "127.0.0.1:0", "127.0.0.1", port, "h2h", "write"};
    std::vector<std::string> client_args{"0", "127.0.0.1", "127.0.0.1:16000", port, "h2h", "write"};
    for (const auto& t : c.tail) {
      server_args.push_back(t);
      client_args.push_back(t);
    }
    auto server = xbtest::start_binary(program, server_args, options);
    const auto client = xbtest::run_binary(program, client_args, options);
    ASSERT_TRUE(client.exited && client.exit_code == 0) << client.describe();
    EXPECT_EQ(xbtest::split_lines(client.out).size(), c.tail.size() == 2 ? 4u : 6u) << client.out;
    const auto notes = xbtest::split_lines(client.err);
    ASSERT_EQ(notes.size(), 1u) << client.err;
    EXPECT_EQ(notes[0].rfind(c.note, 0), 0u) << notes[0];
    // The network path is never shared memory.
    if (c.env || c.tail.size() == 2) {
      EXPECT_EQ(notes[0].find("memory"), std::string::npos) << notes[0];
    }
    const auto served = server.wait_for(std::chrono::seconds(60));
    ASSERT_TRUE(served.has_value() && served->exited && served->exit_code == 0);
  }
}

// HIXL prints one median per block size; XFERBENCH_HIXL_JSON=PATH keeps every pass behind it: the
// result document with one case per block size and each case's `time` series holding one sample per
// pass (XFERBENCH_HIXL_PASSES). A path that cannot be written is refused before anything runs.
TEST(HixlJson, TheResultDocumentHoldsEveryPassBehindEachLine) {
  test::TempDir dir;
  const std::string json_path = (dir.path() / "hixl.json").string();
  xbtest::RunOptions options = xbtest::default_options();
  options.env = {"XFERBENCH_HIXL_TOTAL=8M", "XFERBENCH_HIXL_WAIT=20", "XFERBENCH_HIXL_TRANSPORT=tcp",
                 "XFERBENCH_HIXL_PASSES=3", "XFERBENCH_HIXL_JSON=" + json_path};
  const std::string port = std::to_string(test::free_tcp_port());
  auto server = xbtest::start_binary(XB_BINARY, {"hixl", "1", "127.0.0.1:0", "127.0.0.1", port, "h2h", "write", "false"},
                                     options);
  const auto client =
      xbtest::run_binary(XB_BINARY, {"hixl", "0", "127.0.0.1", "127.0.0.1:16000", port, "h2h", "write", "false"}, options);
  ASSERT_TRUE(client.exited && client.exit_code == 0) << client.describe();
  const auto served = server.wait_for(std::chrono::seconds(60));
  ASSERT_TRUE(served.has_value() && served->exited && served->exit_code == 0);
  const auto lines = xbtest::split_lines(client.out);
  ASSERT_EQ(lines.size(), 6u) << client.out;

  std::ifstream in(json_path);
  ASSERT_TRUE(in.good()) << "no document at " << json_path;
  const auto doc = nlohmann::json::parse(in);
  const auto& cases = doc.at("cases");
  ASSERT_EQ(cases.size(), 6u);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto& c = cases[k];
    EXPECT_EQ(c.at("job"), "xfer");
    EXPECT_EQ(c.at("config").at("block"), (256ull << 10) << k);
    const nlohmann::json* time = nullptr;
    for (const auto& s : c.at("series")) {
      if (s.at("name") == "time") time = &s;
    }
    ASSERT_NE(time, nullptr) << "case " << k << " has no time series";
    EXPECT_EQ(time->at("unit"), "us");
    ASSERT_EQ(time->at("samples").size(), 3u) << "case " << k;
    for (const auto& v : time->at("samples")) EXPECT_GT(v.get<double>(), 0.0);
    EXPECT_EQ(time->at("summary").at("count"), 3u);
    // The printed time cost is the median pass, rounded to whole microseconds.
    std::vector<double> samples = time->at("samples").get<std::vector<double>>();
    std::sort(samples.begin(), samples.end());
    std::smatch m;
    ASSERT_TRUE(std::regex_search(lines[k], m, std::regex(R"(time cost: (\d+) us)"))) << lines[k];
    EXPECT_NEAR(std::stod(m[1]), samples[1], 1.0) << lines[k];
  }

  // Where the document cannot go, the client says so naming the variable, exit 2, before connecting.
  options.env.back() = "XFERBENCH_HIXL_JSON=" + (dir.path() / "no-such-dir" / "hixl.json").string();
  const auto refused =
      xbtest::run_binary(XB_BINARY, {"hixl", "0", "127.0.0.1", "127.0.0.1:16000", port, "h2h", "write", "false"}, options);
  EXPECT_TRUE(refused.exited && refused.exit_code == 2) << refused.describe();
  EXPECT_NE(refused.err.find("XFERBENCH_HIXL_JSON="), std::string::npos) << refused.err;
  EXPECT_TRUE(refused.out.empty()) << refused.out;
}

INSTANTIATE_TEST_SUITE_P(SeedForms, HixlCli,
                         ::testing::Values(HixlCase{"tcp", "d2d", "write", "false", ""},
                                           HixlCase{"tcp", "h2d", "read", "true", "hixl"},
                                           HixlCase{"ucx", "d2d", "write", "false", "benchmark"},
                                           HixlCase{"ucx", "d2h", "read", "true", ""},
                                           HixlCase{"ucx", "h2h", "write", "true", "hixl"}),
                         hixl_case_name);

}  // namespace
}  // namespace xb
