// p2p across MPI ranks, for real: `mpirun --allow-run-as-root --oversubscribe -n 2|4 xferbench p2p
// --mpi` and `mpirun -n 2 ascend-dmi --bw -t p2p --sp 2` on this machine (each rank a process with
// its own cpu backend device, its own transport and a session server thread). The four cases per
// pair in the seed's order, their ranks and devices, bandwidth consistent with the elapsed times,
// --verify checked at the peer, the seed's four blocks, and an odd rank count refused.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/result.hpp"
#include "run_binary.hpp"
#include "support/job_helpers.hpp"
#include "support/mpi_run.hpp"

namespace xb {
namespace {

using test::metric;

using test::have_mpirun;

// mpirun -n RANKS ARGS… as root with more ranks than cores, Open MPI's own leaks suppressed for LSan.
xbtest::RunResult mpirun(int ranks, std::vector<std::string> args) {
  args.insert(args.begin(), {"-n", std::to_string(ranks)});
  return test::run_mpirun(args);
}

std::vector<CaseResult> cases_of(const std::string& json) {
  return result_from_json(nlohmann::json::parse(json)).cases;
}

void expect_pair(const std::vector<CaseResult>& cases, std::size_t at, int a, int b, int dev_a, int dev_b) {
  // The seed's order: b -> a, b <-> a, a -> b, a <-> b.
  const struct {
    int from, to;
    bool bi;
  } order[] = {{b, a, false}, {b, a, true}, {a, b, false}, {a, b, true}};
  for (int i = 0; i < 4; ++i) {
    const CaseResult& c = cases.at(at + static_cast<std::size_t>(i));
    SCOPED_TRACE(c.title);
    ASSERT_EQ(c.status, CaseStatus::ok) << c.status_reason;
    EXPECT_EQ(c.name, order[i].bi ? "p2p_bidirectional" : "p2p_unidirectional");
    const int from_dev = order[i].from == a ? dev_a : dev_b, to_dev = order[i].to == a ? dev_a : dev_b;
    EXPECT_EQ(c.label("from"), "rank " + std::to_string(order[i].from) + " cpu::device::" + std::to_string(from_dev));
    EXPECT_EQ(c.label("to"), "rank " + std::to_string(order[i].to) + " cpu::device::" + std::to_string(to_dev));
    EXPECT_EQ(c.config.at("from_rank").get<int>(), order[i].from);
    EXPECT_EQ(c.config.at("to_device").get<int>(), to_dev);
    EXPECT_EQ(c.config.at("launcher"), "mpi");
    const double bytes = (1 << 20) * (order[i].bi ? 2.0 : 1.0);
    EXPECT_NEAR(metric(c, "bandwidth"), bytes / metric(c, "elapsed_avg") / 1e3, 1e-6);
    EXPECT_EQ(c.find_series("elapsed")->samples.size(), 3u);
  }
}

TEST(P2pMpi, TwoRanksAllFourCasesVerified) {
  if (!have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = mpirun(2, {XB_BINARY, "p2p", "--mpi", "--ds", "1", "--dd", "0", "-s", "1M", "--times", "3",
                            "--verify", "--format", "json", "-q"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = cases_of(r.out);  // rank 0 alone prints
  ASSERT_EQ(cases.size(), 4u);
  expect_pair(cases, 0, 0, 1, 1, 0);
}

TEST(P2pMpi, FourRanksTwoPairs) {
  if (!have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = mpirun(4, {XB_BINARY, "p2p", "--mpi", "--ds", "0", "--dd", "0", "-s", "1M", "--times", "3",
                            "--transport", "tcp", "--format", "json", "-q"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = cases_of(r.out);
  ASSERT_EQ(cases.size(), 8u);
  expect_pair(cases, 0, 0, 1, 0, 0);
  expect_pair(cases, 4, 2, 3, 0, 0);
  EXPECT_EQ(cases[0].config.at("transport"), "tcp");
}

TEST(P2pMpi, AscendDmiMpiModePrintsTheSeedsFourBlocks) {
  if (!have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  // The seed's example 1: ascend-dmi --bw -t p2p --sp 2 --dd 0 --ds 1 -m card -q
  const auto r = mpirun(2, {XB_ASCEND_DMI_LINK, "--bw", "-t", "p2p", "--sp", "2", "--dd", "0", "--ds", "1", "-m",
                            "card", "-q", "-s", "1048576", "--et", "3"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = xbtest::split_lines(r.out);
  ASSERT_EQ(lines.size(), 32u) << r.out;
  const char* pods[] = {"Pod: rank 1 device id: 0 to Pod: rank 0 device id: 1",
                        "Pod: rank 1 device id: 0 and Pod: rank 0 device id: 1",
                        "Pod: rank 0 device id: 1 to Pod: rank 1 device id: 0",
                        "Pod: rank 0 device id: 1 and Pod: rank 1 device id: 0"};
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(lines[static_cast<std::size_t>(b) * 8], b % 2 ? "Bidirectional Peer to Peer Test" : "Unidirectional Peer to Peer Test");
    EXPECT_EQ(lines[static_cast<std::size_t>(b) * 8 + 1], pods[b]);
    std::istringstream row(lines[static_cast<std::size_t>(b) * 8 + 5]);
    std::uint64_t size = 0, times = 0;
    double bw = 0, elapsed = 0;
    row >> size >> times >> bw >> elapsed;
    EXPECT_EQ(size, 1048576u);
    EXPECT_EQ(times, 3u);
    EXPECT_GT(bw, 0.0);
    EXPECT_GT(elapsed, 0.0);
  }
}

TEST(P2pMpi, AnOddRankCountIsRefused) {
  if (!have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = mpirun(3, {XB_BINARY, "p2p", "--mpi", "-s", "4K", "--times", "1", "-q"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("xferbench p2p: --mpi: needs an even number of ranks, 2 or more (pairs 0-1, 2-3, …); this job has 3"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(P2pMpi, NodeOnlyFlagsAreBadInputBeforeMpiStarts) {
  for (const char* flag : {"--all-pairs", "--engine"}) {
    std::vector<std::string> a = {"p2p", "--mpi", flag};
    if (std::string(flag) == "--engine") a.push_back("memcpy");
    const auto r = xbtest::run_binary(XB_BINARY, a);
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.err, std::string("xferbench p2p: ") + flag + ": only within one node (not with --mpi)\n");
  }
  const auto r = xbtest::run_binary(XB_BINARY, {"p2p", "--transport", "tcp"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "xferbench p2p: --transport: only across nodes (with --mpi or --ip)\n");
}

}  // namespace
}  // namespace xb
