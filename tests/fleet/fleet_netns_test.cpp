// Fleet link validation as the issue asks for it: four "hosts" (network namespaces on a bridge),
// one MPI rank in each (Open MPI's rsh agent entering the namespace named as the host), and one
// link slowed with tc (htb, a u32 filter on the destination: host 1 -> host 3 only). The fleet
// must flag exactly that link, no other, and exit 1. Skipped with the reason where namespaces
// cannot be made.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <set>
#include <nlohmann/json.hpp>

#include "core/machine.hpp"
#include "core/result.hpp"
#include "support/job_helpers.hpp"
#include "support/mpi_run.hpp"
#include "support/netns_bridge.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

// Slows host `from`'s traffic to host `to` to `rate` (shared/TESTING.md's recipe); the rest of its
// traffic goes through a class of 100 Gbit/s, i.e. unshaped.
void slow_link(const test::NetnsBridge& b, int from, int to, const std::string& rate) {
  const std::string dev = b.device();
  b.run_in(from, {"tc", "qdisc", "add", "dev", dev, "root", "handle", "1:", "htb", "default", "20"});
  b.run_in(from, {"tc", "class", "add", "dev", dev, "parent", "1:", "classid", "1:10", "htb", "rate", rate});
  b.run_in(from, {"tc", "class", "add", "dev", dev, "parent", "1:", "classid", "1:20", "htb", "rate", "100gbit"});
  b.run_in(from, {"tc", "filter", "add", "dev", dev, "parent", "1:", "protocol", "ip", "u32", "match", "ip", "dst",
                  b.address(to) + "/32", "flowid", "1:10"});
}

// Slows everything host `host` sends to 200 Mbit/s (a tbf on its veth): its NIC, one way.
void slow_host(const test::NetnsBridge& b, int host) {
  b.run_in(host, {"tc", "qdisc", "add", "dev", b.device(), "root", "tbf", "rate", "200mbit", "burst", "64kb", "latency",
                  "500ms"});
}

// Runs `xferbench fleet ARGS…` under mpirun with one rank in each host of `bridge`.
xbtest::RunResult run_fleet(const test::NetnsBridge& bridge, const std::vector<std::string>& args) {
  test::TempDir dir;
  const auto agent = dir.path() / "agent";
  {
    // Open MPI starts its daemon on "host" NAME through this agent: inside namespace NAME, with a
    // session directory of its own (the four daemons share one file system, and Open MPI's
    // session directory set-up races when several daemons of a job make it at once: "mkdir …
    // File exists").
    std::ofstream a(agent);
    a << "#!/bin/sh\nhost=$1; shift\nmkdir -p \"" << dir.path().string() << "/$host\"\n"
      << "export OMPI_MCA_orte_tmpdir_base=\"" << dir.path().string() << "/$host\"\n"
      << "exec ip netns exec \"$host\" /bin/sh -c \"$*\"\n";
  }
  chmod(agent.c_str(), 0700);
  const auto hosts = dir.path() / "hosts";
  {
    std::ofstream h(hosts);
    for (int i = 0; i < bridge.hosts(); ++i) h << bridge.name(i) << " slots=1\n";
  }
  const std::string net = bridge.subnet();
  // --bind-to none: Open MPI binds each "host"'s first rank to its core 0, which here is one core.
  std::vector<std::string> command{"--hostfile", hosts.string(), "-n", std::to_string(bridge.hosts()), "--bind-to", "none",
                                   "--mca", "plm_rsh_agent", agent.string(), "--mca", "routed", "direct", "--mca",
                                   "oob_tcp_if_include", net, "--mca", "btl_tcp_if_include", net, "--mca", "btl", "self,tcp",
                                   XB_BINARY, "fleet"};
  command.insert(command.end(), args.begin(), args.end());
  return test::run_mpirun(command, std::chrono::minutes(3));
}

TEST(FleetNetns, FlagsExactlyTheSlowedLink) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  std::string why;
  auto bridge = test::NetnsBridge::create(4, &why);
  if (!bridge) GTEST_SKIP() << why;
  slow_link(*bridge, 0, 2, "200mbit");  // rank 0 -> rank 2: 25 MB/s against GB/s elsewhere

  // --threshold 0.25 with confirmation (a link below it is measured again alone before it is
  // named). Not the default 0.8: on this 2-core machine a good link's rate is its share of the CPU,
  // and with other work running (parallel builds) one was measured at 0.31 x the median twice in a
  // row. The slowed link (200 Mbit/s) is about 1% of the median, so 0.25 leaves room on both sides;
  // bench/fleet_bench.sh shows the default naming exactly this link on a quieter machine. 16M per
  // execution: long enough (~7 ms) that one lost time slice does not decide an execution.
  const auto r = run_fleet(*bridge, {"-s", "16M", "--times", "5", "--max-pairs", "1", "--threshold", "0.25", "--transport",
                                     "tcp", "--format", "json", "--expect-rule", "fleet=0.05 GB/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const auto cases = result_from_json(nlohmann::json::parse(r.out)).cases;
  ASSERT_EQ(cases.size(), 13u);
  const CaseResult& m = cases.back();
  ASSERT_EQ(m.config.at("flagged").size(), 1u) << m.config.at("flagged").dump();
  const auto& f = m.config.at("flagged")[0];
  EXPECT_EQ(f.at("from_rank"), 0);
  EXPECT_EQ(f.at("to_rank"), 2);
  // Named by host and address (the namespaces share this machine's host name).
  const std::string rank0 = "rank 0 (" + host_name() + " " + bridge->address(0) + ")";
  const std::string rank2 = "rank 2 (" + host_name() + " " + bridge->address(2) + ")";
  EXPECT_EQ(f.at("from"), rank0);
  EXPECT_EQ(f.at("to"), rank2);
  // The command line's floor (the slowed 200 Mbit/s link is below it too; a good link is far above)
  // is recorded; each rank's NIC (its veth) was read where it runs.
  EXPECT_EQ(m.config.at("floor_rule"), "fleet bandwidth ≥ 0.05 GB/s (command line: --expect-rule 1), FAIL below 0.8");
  ASSERT_EQ(m.config.at("rank_info").size(), 4u);
  for (const auto& who : m.config.at("rank_info")) {
    EXPECT_EQ(who.at("nic"), "xbeth0: port at 10000 Mb/s") << who.dump();  // a veth's speed, read in its namespace
    EXPECT_EQ(who.at("device").get<std::string>().rfind("cpu::device::0 (cpu arena 0", 0), 0u) << who.dump();
    EXPECT_EQ(who.at("host"), host_name()) << who.dump();
  }
  EXPECT_TRUE(m.config.at("nodes").empty());  // one link slow: no node named
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) {
    const bool slowed = cases[i].config.at("from_rank") == 0 && cases[i].config.at("to_rank") == 2;
    EXPECT_EQ(cases[i].label("verdict"), slowed ? "slow" : "ok") << cases[i].label("from") << " -> " << cases[i].label("to");
    // Measured again alone: the slowed link always, a good one only if noise took it below at first.
    if (slowed) {
      const Metric* again = cases[i].find_metric("bandwidth_p50_again");
      ASSERT_NE(again, nullptr);
      EXPECT_LT(again->value, 0.1 * test::metric(m, "bandwidth_median"));
    }
  }
  EXPECT_NE(r.err.find("xferbench fleet: 1 of 12 links slow (below 0.25 x the median link"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  slow link: " + rank0 + " -> " + rank2 + ": "),
            std::string::npos)
      << r.err;
}

// Item 6 of issue 17: every link of one node slowed (its NIC both ways: a tbf on its own veth, and
// its three peers' traffic to it) is named as the node, not as six links. Small executions (2M x 2):
// the slowed links run at 200 Mbit/s, and each is measured again (all at once, then halved).
TEST(FleetNetns, NamesTheSlowedNodeNotItsLinks) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  std::string why;
  auto bridge = test::NetnsBridge::create(4, &why);
  if (!bridge) GTEST_SKIP() << why;
  slow_host(*bridge, 3);
  for (int from = 0; from < 3; ++from) slow_link(*bridge, from, 3, "200mbit");
  const auto r = run_fleet(*bridge, {"-s", "2M", "--times", "2", "--threshold", "0.25", "--transport", "tcp",
                                     "--format", "json", "--expect-rule", "fleet=0.001 GB/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const auto cases = result_from_json(nlohmann::json::parse(r.out)).cases;
  ASSERT_EQ(cases.size(), 13u);
  const auto& m = cases.back().config;
  EXPECT_EQ(m.at("flagged").size(), 6u) << m.at("flagged").dump();
  ASSERT_EQ(m.at("nodes").size(), 1u) << m.dump();
  EXPECT_EQ(m.at("nodes")[0].at("rank"), 3);
  EXPECT_EQ(m.at("nodes")[0].at("slow"), 6);
  EXPECT_EQ(m.at("nodes")[0].at("links"), 6);
  EXPECT_TRUE(m.at("links_named").empty()) << m.at("links_named").dump();  // all six are the node's
  EXPECT_FALSE(m.at("every_link_slow").get<bool>());
  const std::string rank3 = "rank 3 (" + host_name() + " " + bridge->address(3) + ")";
  EXPECT_NE(r.err.find("  slow node: " + rank3 + ": 6 of its 6 links slow"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("  slow link: "), std::string::npos) << r.err;
}

// Item 6 of issue 17: every link slowed (a 200 Mbit/s tbf on every host's veth: 25 MB/s each way)
// is below the floor (0.05 GB/s, FAIL below 0.8 of it: 0.04), so the fleet fails as a whole: every
// link flagged by the floor, confirmed by one retest of all at once, no node named.
TEST(FleetNetns, EveryLinkSlowedFailsTheFleetByTheFloorAndNamesNoNode) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  std::string why;
  auto bridge = test::NetnsBridge::create(4, &why);
  if (!bridge) GTEST_SKIP() << why;
  for (int host = 0; host < bridge->hosts(); ++host) slow_host(*bridge, host);
  const auto r = run_fleet(*bridge, {"-s", "2M", "--times", "2", "--transport", "tcp", "--format", "json",
                                     "--expect-rule", "fleet=0.05 GB/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const auto cases = result_from_json(nlohmann::json::parse(r.out)).cases;
  ASSERT_EQ(cases.size(), 13u);
  const auto& m = cases.back().config;
  ASSERT_EQ(m.at("flagged").size(), 12u) << m.at("flagged").dump();
  for (const auto& f : m.at("flagged")) EXPECT_EQ(f.at("why"), "below the floor (0.04 GB/s)") << f.dump();
  EXPECT_TRUE(m.at("every_link_slow").get<bool>());
  EXPECT_TRUE(m.at("nodes").empty()) << m.at("nodes").dump();
  EXPECT_EQ(m.at("links_named").size(), 12u);
  EXPECT_TRUE(m.at("cleared").empty()) << m.at("cleared").dump();
  EXPECT_EQ(m.at("retests"), 1);  // every link flagged: the first retest confirms, no halving
  EXPECT_NE(r.err.find("every link is slow: the fleet as a whole, no one node"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("  slow node: "), std::string::npos) << r.err;
}

// Item 6 of issue 17: a rounds file respected across namespaces. Two rounds of the user's own
// (0-3 and 1-2 never meet): exactly those eight links are measured, the matrix leaves the other
// cells empty, and the slowed link among them (0 -> 2) is named as a link: rank 0 has two partners
// and only one of its four links is slow.
TEST(FleetNetns, ARoundsFileIsRespected) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  std::string why;
  auto bridge = test::NetnsBridge::create(4, &why);
  if (!bridge) GTEST_SKIP() << why;
  slow_link(*bridge, 0, 2, "200mbit");
  test::TempDir dir;
  const auto rounds = dir.path() / "rounds";
  std::ofstream(rounds) << "# our own schedule: 0-3 and 1-2 never meet\n0-1 2-3\n\n0-2 1-3  # the second round\n";
  const auto r = run_fleet(*bridge, {"-s", "2M", "--times", "3", "--threshold", "0.25", "--transport", "tcp", "--format",
                                     "json", "--expect-rule", "fleet=0.001 GB/s", "--rounds", rounds.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const auto cases = result_from_json(nlohmann::json::parse(r.out)).cases;
  ASSERT_EQ(cases.size(), 9u);  // eight links, then the matrix
  std::set<std::pair<int, int>> links;
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) {
    links.insert({cases[i].config.at("from_rank").get<int>(), cases[i].config.at("to_rank").get<int>()});
  }
  EXPECT_EQ(links, (std::set<std::pair<int, int>>{{0, 1}, {1, 0}, {2, 3}, {3, 2}, {0, 2}, {2, 0}, {1, 3}, {3, 1}}));
  const auto& m = cases.back().config;
  EXPECT_EQ(m.at("schedule"), "rounds");
  const auto& cells = m.at("matrix").at("values");
  for (const auto& [from, to] : std::vector<std::pair<int, int>>{{0, 3}, {3, 0}, {1, 2}, {2, 1}}) {
    EXPECT_TRUE(cells.at(from).at(to).is_null()) << from << " -> " << to << ": " << cells.dump();
  }
  for (const auto& [from, to] : links) EXPECT_TRUE(cells.at(from).at(to).is_number()) << from << " -> " << to;
  ASSERT_EQ(m.at("flagged").size(), 1u) << m.at("flagged").dump();
  EXPECT_EQ(m.at("flagged")[0].at("from_rank"), 0);
  EXPECT_EQ(m.at("flagged")[0].at("to_rank"), 2);
  EXPECT_TRUE(m.at("nodes").empty()) << m.at("nodes").dump();
  ASSERT_EQ(m.at("links_named").size(), 1u);
  EXPECT_EQ(m.at("links_named")[0].at("to_rank"), 2);
}

// The path a fleet above 256 ranks takes (issue 17 item 5), here with --matrix-max-ranks 3 on four:
// only the slowed link (and any link a burst flagged, then cleared) has its case, the matrix is
// left out and says so, and the metrics still sum up every link.
TEST(FleetNetns, AboveTheMatrixCapOnlyTheFlaggedAndClearedLinksAreListed) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  std::string why;
  auto bridge = test::NetnsBridge::create(4, &why);
  if (!bridge) GTEST_SKIP() << why;
  slow_link(*bridge, 1, 3, "200mbit");
  const auto r = run_fleet(*bridge, {"-s", "2M", "--times", "3", "--threshold", "0.25", "--transport", "tcp", "--format",
                                     "json", "--matrix-max-ranks", "3"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const auto cases = result_from_json(nlohmann::json::parse(r.out)).cases;
  ASSERT_GE(cases.size(), 2u);
  const auto& m = cases.back().config;
  ASSERT_EQ(m.at("flagged").size(), 1u) << m.at("flagged").dump();
  EXPECT_EQ(m.at("flagged")[0].at("from_rank"), 1);
  EXPECT_EQ(m.at("flagged")[0].at("to_rank"), 3);
  EXPECT_EQ(cases.size(), 1 + m.at("cleared").size() + 1) << r.out;  // the flagged, the cleared, the matrix
  bool slowed_listed = false;
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) {
    const bool slowed = cases[i].config.at("from_rank") == 1 && cases[i].config.at("to_rank") == 3;
    slowed_listed = slowed_listed || slowed;
    EXPECT_EQ(cases[i].label("verdict"), slowed ? "slow" : "ok");
  }
  EXPECT_TRUE(slowed_listed);
  EXPECT_FALSE(m.contains("matrix"));
  EXPECT_EQ(m.at("matrix_left_out"),
            "4 ranks: above 3 ranks the matrix (16 cells) and the cases of links neither flagged nor cleared are left "
            "out; this case's metrics sum up every link");
  EXPECT_EQ(test::metric(cases.back(), "links"), 12.0);
}

}  // namespace
}  // namespace xb
