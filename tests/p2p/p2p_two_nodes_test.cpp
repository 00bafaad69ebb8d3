// `xferbench p2p --ip PEER --hip SELF [--spp DIR]`: two nodes started by hand, without MPI, for real:
// two processes of the binary, each with its own device, transport and session server, on two
// loopback addresses or in two network namespaces (a veth pair, each side seeing only its own
// address). Both run the same command mirrored; the lower address becomes rank 0 (on --ds) and
// both print the same four cases in the native JSON. A peer that never comes is the start-window
// error on either side (the run ends: a hang fails the wait below); bad input is exit 2 with one
// line naming the flag, and leaves nothing behind (no -o file, nothing in the shared directory).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "run_binary.hpp"
#include "support/job_helpers.hpp"
#include "support/netns.hpp"
#include "support/shared_dir.hpp"
#include "support/temp_dir.hpp"
#include "two_nodes.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

// One node's arguments (after the program): the run's terms, then `extra`.
std::vector<std::string> node(const std::string& self, const std::string& peer, const std::vector<std::string>& extra) {
  std::vector<std::string> a = {"p2p", "--ip", peer, "--hip", self, "-s", "1M", "--times", "3", "--format", "json",
                                "-q"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// Both nodes succeeded and printed one run: four cases each (the --mpi order: rank 1 -> rank 0,
// both ways, rank 0 -> rank 1, both ways), the same figures on both, rank 0 being `lower`.
void expect_one_run(const test::TwoRuns& r, const std::string& lower, const std::string& higher, const std::string& launcher) {
  ASSERT_TRUE(r.first.exited && r.first.exit_code == 0) << r.first.describe();
  ASSERT_TRUE(r.second.exited && r.second.exit_code == 0) << r.second.describe();
  EXPECT_EQ(r.first.err, "");
  EXPECT_EQ(r.second.err, "");
  const ResultDocument a = result_from_json(nlohmann::json::parse(r.first.out));
  const ResultDocument b = result_from_json(nlohmann::json::parse(r.second.out));
  ASSERT_EQ(a.cases.size(), 4u);
  ASSERT_EQ(b.cases.size(), 4u);
  const int from_rank[] = {1, 1, 0, 0};
  for (std::size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const CaseResult& c = a.cases[i];
    ASSERT_EQ(c.status, CaseStatus::ok);
    EXPECT_EQ(c.name, i % 2 == 0 ? "p2p_unidirectional" : "p2p_bidirectional");
    EXPECT_EQ(c.config.at("launcher"), launcher);
    EXPECT_EQ(c.config.at("scope"), "nodes");
    EXPECT_EQ(c.config.at("from_rank"), from_rank[i]);
    EXPECT_EQ(c.config.at("to_rank"), 1 - from_rank[i]);
    // --ds 1 --dd 0 on both: rank 0 (the lower address) on device 1, rank 1 on device 0.
    EXPECT_EQ(c.config.at("from_device"), from_rank[i] == 0 ? 1 : 0);
    EXPECT_EQ(c.find_series("elapsed")->samples.size(), 3u);
    EXPECT_GT(test::metric(c, "bandwidth"), 0.0);
    // One measurement, delivered on both nodes.
    EXPECT_EQ(test::metric(c, "bandwidth"), test::metric(b.cases[i], "bandwidth"));
    EXPECT_EQ(c.label("from"), b.cases[i].label("from"));
  }
  EXPECT_EQ(a.cases[2].label("from"), "rank 0 cpu::device::1") << lower << " is rank 0";
  EXPECT_EQ(a.cases[2].label("to"), "rank 1 cpu::device::0") << higher << " is rank 1";
}

TEST(P2pTwoNodes, PeerIpOnLoopbackBothNodesPrintOneRun) {
  // The higher address (rank 1, which connects) starts first and retries until rank 0 listens.
  const std::vector<std::string> extra = {"--ds", "1", "--dd", "0", "--verify"};
  const auto r =
      test::run_two(XB_BINARY, node("127.0.0.22", "127.0.0.21", extra), node("127.0.0.21", "127.0.0.22", extra));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  expect_one_run(*r, "127.0.0.21", "127.0.0.22", "peer-ip");
}

TEST(P2pTwoNodes, SharedDirectoryOnLoopbackLeavesItEmpty) {
  test::SharedDir spp;
  const std::vector<std::string> extra = {"--ds", "1", "--dd", "0", "--spp", spp.path.string()};
  const auto r =
      test::run_two(XB_BINARY, node("127.0.0.23", "127.0.0.24", extra), node("127.0.0.24", "127.0.0.23", extra));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  expect_one_run(*r, "127.0.0.23", "127.0.0.24", "shared-dir");
  EXPECT_TRUE(std::filesystem::is_empty(spp.path)) << "everything made in DIR was removed";
}

TEST(P2pTwoNodes, BetweenTwoNetworkNamespaces) {
  std::string why;
  const auto ns = test::NetnsPair::create(&why);
  if (!ns) GTEST_SKIP() << why;
  test::SharedDir spp;
  for (const bool shared : {false, true}) {
    SCOPED_TRACE(shared ? "--spp" : "peer IP");
    const std::string a0 = ns->address(0), a1 = ns->address(1);
    // Off loopback each node serves the other on its own token, never the public built-in one.
    std::vector<std::string> extra = {"--ds", "1", "--dd", "0", "--token", "p2p-netns-token"};
    if (shared) extra.insert(extra.end(), {"--spp", spp.path.string()});
    const auto in_ns = [&](int side, std::vector<std::string> args) {
      args.insert(args.begin(), XB_BINARY);
      return ns->args_to_run(side, args);
    };
    const auto r = test::run_two(ns->program(), in_ns(0, node(a0, a1, extra)), in_ns(1, node(a1, a0, extra)));
    ASSERT_TRUE(r.has_value()) << "a node hung";
    // NetnsPair's side 0 has the lower address (10.213.k.1, side 1 10.213.k.2).
    expect_one_run(*r, a0, a1, shared ? "shared-dir" : "peer-ip");
    EXPECT_TRUE(std::filesystem::is_empty(spp.path));
  }
}

TEST(P2pTwoNodes, APeerThatNeverComesIsTheStartWindowError) {
  // Two nodes that name others: .25 (rank 0 of .25/.26) listens in vain, .28 (rank 1 of .27/.28)
  // finds no one at .27. Each gives up after its 2 s window.
  const auto r = test::run_two(XB_BINARY, node("127.0.0.25", "127.0.0.26", {"--window", "2"}),
                               node("127.0.0.28", "127.0.0.27", {"--window", "2"}));
  ASSERT_TRUE(r.has_value()) << "a node hung instead of giving up";
  EXPECT_EQ(r->first.exit_code, 1) << r->first.describe();
  EXPECT_EQ(r->first.err, "xferbench p2p: error: no peer connected to 127.0.0.25:20005 within 2 s: start the other "
                          "node within the start window\n");
  EXPECT_EQ(r->second.exit_code, 1) << r->second.describe();
  EXPECT_EQ(r->second.err.rfind("xferbench p2p: error: no peer at 127.0.0.27:20005 after 2 s (", 0), 0u)
      << r->second.err;
  EXPECT_EQ(r->first.out, "");
  EXPECT_EQ(r->second.out, "");
}

TEST(P2pTwoNodes, ASharedDirectoryPeerThatNeverComesIsTheStartWindowError) {
  test::SharedDir spp;
  auto p = xbtest::start_binary(XB_BINARY, node("127.0.0.30", "127.0.0.29", {"--window", "2", "--spp", spp.path.string()}));
  const auto r = p.wait_for(60s);
  ASSERT_TRUE(r.has_value()) << "hung instead of giving up";
  EXPECT_EQ(r->exit_code, 1) << r->describe();
  EXPECT_EQ(r->err, "xferbench p2p: error: no peer: " +
                        (spp.path / "ascend_check/127.0.0.29_0_127.0.0.30_1_device/procInfo").string() +
                        " did not appear within 2 s: start the other node (127.0.0.29) within the start window\n");
  EXPECT_TRUE(std::filesystem::is_empty(spp.path)) << "its flag file and ascend_check removed";
}

TEST(P2pTwoNodes, NodesOnDifferentDevicesRefuseToRun) {
  const auto r = test::run_two(XB_BINARY, node("127.0.0.32", "127.0.0.31", {"--ds", "0", "--dd", "1"}),
                               node("127.0.0.31", "127.0.0.32", {"--ds", "1", "--dd", "0"}));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  for (const auto* run : {&r->first, &r->second}) {
    EXPECT_EQ(run->exit_code, 1) << run->describe();
    EXPECT_NE(run->err.find("the ranks disagree: rank 0 runs with -s 1048576, --times 3, 1 warm-up, verify off, "
                            "transport "),
              std::string::npos)
        << run->err;
    EXPECT_NE(run->err.find("device 1 on even ranks and 0 on odd, rank 1 with -s 1048576"), std::string::npos)
        << run->err;
    EXPECT_NE(run->err.find("device 0 on even ranks and 1 on odd (both nodes must use the same -s, --times and devices)"),
              std::string::npos)
        << run->err;
    EXPECT_EQ(run->out, "");
  }
}

TEST(P2pTwoNodes, BadInputNamesTheFlagAndLeavesNothingBehind) {
  test::SharedDir spp;
  test::TempDir dir;
  const auto out = dir.path() / "never.json";
  const auto open_dir = dir.path() / "open";
  ASSERT_EQ(mkdir(open_dir.c_str(), 0755), 0);
  ASSERT_EQ(chmod(open_dir.c_str(), 0755), 0);
  const std::string pair = "--ip 10.9.0.2 --hip 10.9.0.1 ";
  const std::string good_spp = " --spp " + spp.path.string();
  const std::pair<std::string, std::string> cases[] = {
      {"--ip 10.9.0.2", "--ip: needs --hip"},
      {"--ip 10.9.0.300 --hip 10.9.0.1", "--ip 10.9.0.300: not a valid IP address"},
      {"--ip 10.9.0.2 --hip nodeA", "--hip nodeA: not a valid IP address"},
      {"--ip ::1 --hip 10.9.0.1", "--ip ::1: not the address family of --hip 10.9.0.1"},
      {"--ip 10.9.0.1 --hip 10.9.0.1", "--ip 10.9.0.1: the same address as --hip 10.9.0.1"},
      {pair + "--mpi", "--ip: not with --mpi"},
      {pair + "--all-pairs", "--all-pairs: only within one node (not with --ip)"},
      {pair + "--engine memcpy", "--engine: only within one node (not with --ip)"},
      {"--hip 10.9.0.1", "--hip: only across nodes (with --mpi or --ip)"},
      {"--spp " + spp.path.string(), "--spp: only with --ip and --hip"},
      {"--window 5", "--window: only with --ip and --hip"},
      {pair + "--window 0" + good_spp, "--window 0:"},
      {pair + "--window 3601" + good_spp, "--window 3601:"},
      {pair + "--spp /tmp/*", "--spp /tmp/*: the path may not contain a wildcard (*)"},
      {pair + "--spp " + open_dir.string(), "--spp " + open_dir.string() + ": mode 0755 gives group or others access"},
      {pair + "--spp " + (dir.path() / "none").string(), "--spp " + (dir.path() / "none").string() + ": No such file"},
      {pair + "--transport carrier-pigeon" + good_spp, "--transport carrier-pigeon: this build has"},
      {pair + "--wait 0" + good_spp, "--wait 0:"},
      {pair + "-s 5G" + good_spp, "-s 5368709120: expected a size from 1 byte to 4294967296 bytes"},
  };
  for (const auto& [args, expected] : cases) {
    SCOPED_TRACE(args);
    auto a = xbtest::split_words(args + " -o " + out.string());
    a.insert(a.begin(), "p2p");
    const auto r = xbtest::run_binary(XB_BINARY, a);
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("xferbench p2p: " + expected, 0), 0u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << "no output file";
    EXPECT_TRUE(std::filesystem::is_empty(spp.path)) << "nothing made in the shared directory";
  }
}

}  // namespace
}  // namespace xb
