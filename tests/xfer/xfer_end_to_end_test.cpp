// `xferbench xfer` end to end: a real server and client process, every mode x op with --verify,
// with and without the staging pool, on both transports, over loopback and across two network
// namespaces joined by a veth pair (root; skipped with the reason otherwise), and over IPv6 (::1). Small totals, so the
// whole matrix stays quick; the server listens on port 0 and announces it (--ready-file).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "support/temp_dir.hpp"
#include "transport/transport.hpp"
#include "xfer_processes.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using Params = std::tuple<std::string /*transport*/, std::string /*mode*/, std::string /*op*/, bool /*pool*/>;

using test::has_transport;

// 2 MiB per block size in 256 KiB and 1 MiB blocks; the pool's 256 KiB slots split a 1 MiB block
// into four chunks, so both the chunking and the double buffering run.
// Both sides' token: a server off loopback refuses to run on the public built-in one.
const std::string kToken = "xfer-end-to-end-token";

std::vector<std::string> client_args(const Params& p, const std::string& peer) {
  const auto& [transport, mode, op, pool] = p;
  std::vector<std::string> a{XB_BINARY, "xfer",    "client",        "--peer",      peer,    "--transport",
                             transport, "--mode",  mode,            "--op",        op,      "--block",
                             "256K,1M", "--total", "2M",            "--verify",    "--wait", "20",
                             "--format", "json",   "--iters",       "2", "--token", kToken};
  if (pool) {
    a.insert(a.end(), {"--pool", "--pool-chunk", "256K"});
  }
  return a;
}

void check_client_result(const Params& p, const xbtest::RunResult& r) {
  const auto& [transport, mode, op, pool] = p;
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto doc = nlohmann::json::parse(r.out);
  const auto& cases = doc.at("cases");
  ASSERT_EQ(cases.size(), 2u);
  const std::uint64_t blocks[] = {256 << 10, 1 << 20};
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& c = cases[k];
    const auto& config = c.at("config");
    EXPECT_EQ(c.at("job"), "xfer");
    EXPECT_EQ(config.at("block"), blocks[k]);
    EXPECT_EQ(config.at("transfers"), (2u << 20) / blocks[k]);
    EXPECT_EQ(config.at("mode"), mode);
    EXPECT_EQ(config.at("op"), op);
    EXPECT_EQ(config.at("verified"), true) << "block " << blocks[k];
    EXPECT_EQ(config.at("pool"), pool);
    EXPECT_EQ(config.at("mover").at("path"), pool ? "staging pool" : "direct");
    // The cpu backend's device memory is host RAM: handed to either transport as it is.
    if (mode[0] == 'd') {
      EXPECT_EQ(config.at("device_path"), pool ? "staged through the pinned pool: --pool asked for it" : "registered");
    } else {
      EXPECT_FALSE(config.contains("device_path"));
    }
    EXPECT_EQ(config.at("transport").at("name"), transport);
    EXPECT_FALSE(config.at("transport").at("lanes").get<std::string>().empty());
    EXPECT_FALSE(config.at("server").get<std::string>().empty());
    // How the passes were timed, recorded in the result (this run asks for --latency too).
    EXPECT_EQ(config.at("timing").get<std::string>().rfind("host clock: each pass from queueing", 0), 0u) << config;
    EXPECT_NE(config.at("timing").get<std::string>().find("the latency pass: each transfer"), std::string::npos) << config;
    bool throughput = false, latency = false;
    for (const auto& m : c.at("metrics")) {
      if (m.at("name") == "throughput") throughput = m.at("value").get<double>() > 0;
      if (m.at("name") == "latency_p99") latency = m.at("value").get<double>() > 0;
    }
    EXPECT_TRUE(throughput);
    EXPECT_TRUE(latency);
  }
}

class XferEndToEnd : public ::testing::TestWithParam<Params> {
 protected:
  void SetUp() override {
    if (!has_transport(std::get<0>(GetParam()))) GTEST_SKIP() << std::get<0>(GetParam()) << " is not built here";
  }

  void run_pair(const test::Place& server_at, const test::Place& client_at, const std::string& host) {
    test::TempDir dir;
    auto server = test::start_xfer_server(server_at, host, dir.path(), {"--transport", std::get<0>(GetParam()),
                                                                        "--wait", "20", "--format", "json",
                                                                        "--token", kToken});
    const auto client = test::run_in(client_at, client_args(GetParam(), server.control));
    check_client_result(GetParam(), client);
    const auto served = server.process.wait_for(std::chrono::seconds(30));
    ASSERT_TRUE(served.has_value()) << "the server did not end after its client was done";
    ASSERT_TRUE(served->exited && served->exit_code == 0) << served->describe();
    const auto doc = nlohmann::json::parse(served->out);
    const auto& served_case = doc.at("cases").at(0);
    EXPECT_EQ(served_case.at("config").at("role"), "server");
    // The client asks for one region of its --total, 2M: exactly what the server reports.
    const auto& metrics = served_case.at("metrics");
    ASSERT_EQ(metrics.size(), 2u) << metrics.dump();
    EXPECT_EQ(metrics[0].at("name").get<std::string>(), "regions");
    EXPECT_EQ(metrics[0].at("value").get<double>(), 1.0);
    EXPECT_EQ(metrics[0].at("unit").get<std::string>(), "regions");
    EXPECT_EQ(metrics[1].at("name").get<std::string>(), "exposed_bytes");
    EXPECT_EQ(metrics[1].at("value").get<double>(), 2.0 * (1 << 20));
    EXPECT_EQ(metrics[1].at("unit").get<std::string>(), "B");
  }
};

TEST_P(XferEndToEnd, Loopback) { run_pair({}, {}, "127.0.0.1"); }

// IPv6 end to end (control channel, the transport's listener and, for UCX, its bootstrap) on the
// loopback ::1. The address family is the same for every mode, so h2h and d2d carry it.
TEST_P(XferEndToEnd, Ipv6Loopback) {
  const std::string& mode = std::get<1>(GetParam());
  if (mode != "h2h" && mode != "d2d") GTEST_SKIP() << "h2h and d2d carry the address family";
  run_pair({}, {}, "[::1]");
}

TEST_P(XferEndToEnd, AcrossTwoNetworkNamespaces) {
  std::string why;
  const auto ns = test::NetnsPair::create(&why);
  if (!ns) GTEST_SKIP() << why;
  // The server in namespace b listens on its veth address; the client in a reaches it over the veth.
  run_pair({ns.get(), 1}, {ns.get(), 0}, ns->address(1));
}

// Judged (issue 17): the client's figure is set against the interface its route to the server
// takes — the veth in its namespace (10000 Mb/s, no PCI link) — with the built-in share from 4M
// blocks; the verdict itself depends on this machine's speed, so only its terms are checked.
TEST(XferJudge, AcrossNamespacesTheVethTheRouteTakesIsTheCeiling) {
  std::string why;
  const auto ns = test::NetnsPair::create(&why);
  if (!ns) GTEST_SKIP() << why;
  test::TempDir dir;
  auto server = test::start_xfer_server({ns.get(), 1}, ns->address(1), dir.path(),
                                        {"--transport", "tcp", "--wait", "20", "--format", "json", "--token", kToken});
  const auto r = test::run_in({ns.get(), 0}, {XB_BINARY, "xfer", "client", "--peer", server.control, "--transport", "tcp",
                                              "--block", "64K,4M", "--total", "8M", "--wait", "20", "--format", "json",
                                              "--token", kToken, "--no-latency", "--judge"});
  ASSERT_TRUE(r.exited && (r.exit_code == 0 || r.exit_code == 1)) << r.describe();
  const auto cases = nlohmann::json::parse(r.out).at("cases");
  ASSERT_EQ(cases.size(), 2u);
  const auto small = cases[0].at("verdict"), large = cases[1].at("verdict");
  const std::string derivation = large.at("ceiling_derivation");
  EXPECT_NE(derivation.find("over tcp (tcp): "), std::string::npos) << derivation;
  EXPECT_NE(derivation.find(": port at 10000 Mb/s"), std::string::npos) << derivation;
  EXPECT_DOUBLE_EQ(large.at("ceiling").get<double>(), 10000e6 / 8 / (1 << 30));  // GiB/s, the metric's unit
  EXPECT_DOUBLE_EQ(large.at("expected").get<double>(), 0.85 * 10000e6 / 8 / (1 << 30));
  EXPECT_EQ(large.at("layer"), "built-in");
  EXPECT_TRUE(large.at("verdict") == "PASS" || large.at("verdict") == "WARN" || large.at("verdict") == "FAIL") << large.dump();
  EXPECT_EQ(r.exit_code == 1, large.at("verdict") == "FAIL");
  EXPECT_EQ(small.at("verdict"), "unjudged");  // below the built-in rule's 4M
  EXPECT_EQ(small.at("reason"), "no rule applies to xfer bandwidth at 65536 B blocks");
  const auto served = server.process.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(served && served->exited && served->exit_code == 0);
}

std::string name_of(const ::testing::TestParamInfo<Params>& info) {
  const auto& [transport, mode, op, pool] = info.param;
  return transport + "_" + mode + "_" + op + (pool ? "_pool" : "");
}

INSTANTIATE_TEST_SUITE_P(EveryModeOpAndPool, XferEndToEnd,
                         ::testing::Combine(::testing::Values("tcp", "ucx"), ::testing::Values("d2d", "h2d", "d2h", "h2h"),
                                            ::testing::Values("write", "read"), ::testing::Bool()),
                         name_of);

}  // namespace
}  // namespace xb
