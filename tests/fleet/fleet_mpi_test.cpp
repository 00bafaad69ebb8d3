// `mpirun -n N xferbench fleet` for real on this machine (each rank a process with its own cpu
// backend device, transport and session server): every directed link measured once and verified,
// the matrix filled from the links, the schedule's cap recorded, an odd rank count (a bye each
// round), and bad input refused before MPI starts.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/machine.hpp"
#include "core/matrix.hpp"
#include "core/result.hpp"
#include "run_binary.hpp"
#include "support/job_helpers.hpp"
#include "support/mpi_run.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::metric;

std::vector<CaseResult> cases_of(const std::string& json) { return result_from_json(nlohmann::json::parse(json)).cases; }

// The links of a fleet of n ranks: n (n - 1) link cases, each ordered pair once, then the matrix
// whose cells are the links' bandwidth at the median execution.
void expect_fleet(const std::vector<CaseResult>& cases, int n) {
  const std::size_t links = static_cast<std::size_t>(n * (n - 1));
  ASSERT_EQ(cases.size(), links + 1);
  const CaseResult& matrix_case = cases.back();
  EXPECT_EQ(matrix_case.name, "fleet_matrix");
  const auto m = case_matrix(matrix_case);
  ASSERT_TRUE(m.has_value());
  ASSERT_EQ(m->rows.size(), static_cast<std::size_t>(n));
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < links; ++i) {
    const CaseResult& c = cases[i];
    SCOPED_TRACE(c.title);
    ASSERT_EQ(c.status, CaseStatus::ok) << c.status_reason;
    EXPECT_EQ(c.name, "fleet_link");
    const int from = c.config.at("from_rank").get<int>(), to = c.config.at("to_rank").get<int>();
    EXPECT_NE(from, to);
    EXPECT_TRUE(seen.insert({from, to}).second);
    EXPECT_EQ(c.label("from").rfind("rank " + std::to_string(from) + " (", 0), 0u) << c.label("from");
    EXPECT_EQ(c.label("to").rfind("rank " + std::to_string(to) + " (", 0), 0u) << c.label("to");
    EXPECT_EQ(c.find_series("elapsed")->samples.size(), 3u);
    const double p50 = metric(c, "bandwidth_p50");
    EXPECT_GT(p50, 0.0);
    EXPECT_NEAR(p50, (1 << 20) / metric(c, "elapsed_p50") / 1e3, 1e-6);
    ASSERT_TRUE(m->values.at(static_cast<std::size_t>(from)).at(static_cast<std::size_t>(to)).has_value());
    EXPECT_DOUBLE_EQ(*m->values[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)], p50);
  }
  for (int r = 0; r < n; ++r) EXPECT_FALSE(m->values[static_cast<std::size_t>(r)][static_cast<std::size_t>(r)].has_value());
  EXPECT_EQ(metric(matrix_case, "links"), static_cast<double>(links));
}

// Issue 17: an absolute floor (here a command-line rule no link can meet) fails a fleet whose links
// are all alike, which the median alone never flags; each is measured again before it is named, and
// with every link slow no one node is blamed.
TEST(FleetMpi, AUniformlySlowFleetFailsItsFloorAndNoNodeIsBlamed) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = test::run_mpirun({"-n", "3", XB_BINARY, "fleet", "-s", "1M", "--times", "2", "--threshold", "0",
                                   "--transport", "tcp", "--format", "json", "-q", "--expect-rule", "fleet=100000 GB/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  const auto cases = cases_of(r.out);
  ASSERT_EQ(cases.size(), 7u);
  const auto& m = cases.back().config;
  EXPECT_EQ(m.at("flagged").size(), 6u);
  EXPECT_EQ(m.at("flagged")[0].at("why"), "below the floor (80000 GB/s)");
  EXPECT_TRUE(m.at("every_link_slow").get<bool>());
  EXPECT_TRUE(m.at("nodes").empty());
  EXPECT_GE(m.at("retests").get<int>(), 1);
  EXPECT_EQ(m.at("floor_rule"), "fleet bandwidth ≥ 100000 GB/s (command line: --expect-rule 1), FAIL below 0.8");
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) EXPECT_NE(cases[i].find_metric("bandwidth_p50_again"), nullptr);
  EXPECT_NE(r.err.find("xferbench fleet: 6 of 6 links slow (below 0 x the median link"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("every link is slow: the fleet as a whole, no one node"), std::string::npos) << r.err;
}

// Issue 17's schedules under mpirun: quick measures each rank against one other (4 links of 12);
// a rounds file naming a rank the fleet lacks is exit 2 at every rank, before anything is measured.
TEST(FleetMpi, QuickScheduleAndARoundsFileHeldToTheFleet) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  auto r = test::run_mpirun({"-n", "4", XB_BINARY, "fleet", "-s", "1M", "--times", "2", "--threshold", "0",
                             "--transport", "tcp", "--format", "json", "-q", "--schedule", "quick"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  auto cases = cases_of(r.out);
  ASSERT_EQ(cases.size(), 5u);  // 0<->2 and 1<->3, both ways, then the matrix
  std::set<std::pair<int, int>> links;
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) {
    links.insert({cases[i].config.at("from_rank").get<int>(), cases[i].config.at("to_rank").get<int>()});
  }
  EXPECT_EQ(links, (std::set<std::pair<int, int>>{{0, 2}, {2, 0}, {1, 3}, {3, 1}}));
  EXPECT_EQ(cases.back().config.at("schedule"), "quick");

  test::TempDir dir;
  const auto file = dir.path() / "rounds";
  std::ofstream(file) << "0-1\n0-2\n";
  r = test::run_mpirun({"-n", "2", XB_BINARY, "fleet", "-s", "1M", "--times", "2", "--transport", "tcp", "-q",
                        "--rounds", file.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("xferbench fleet: " + file.string() + ": round 2 names rank 2, but the fleet has 2 ranks (0 to 1)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");

  // Topology: every rank's host must have a location (here this machine's host is not in the file).
  const auto locations = dir.path() / "locations";
  std::ofstream(locations) << "some-other-node rack1/sw1\n";
  r = test::run_mpirun({"-n", "2", XB_BINARY, "fleet", "-s", "1M", "--times", "2", "--transport", "tcp", "-q",
                        "--schedule", "topology", "--locations", locations.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("--locations " + locations.string() + ": host " + host_name() + " (rank 0) is not in it"),
            std::string::npos)
      << r.err;
  // With it, the pairs cross locations (one host here: half against half).
  std::ofstream(locations) << host_name() << " rack1/sw1\n";
  r = test::run_mpirun({"-n", "2", XB_BINARY, "fleet", "-s", "1M", "--times", "2", "--threshold", "0", "--transport",
                        "tcp", "-q", "--format", "json", "--schedule", "topology", "--locations", locations.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  cases = cases_of(r.out);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases.back().config.at("schedule"), "topology");
}

TEST(FleetMpi, FourRanksEveryLinkVerified) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  // --threshold 0: on one shared machine the links' spread is noise, not a cable; nothing is judged.
  const auto r = test::run_mpirun({"-n", "4", XB_BINARY, "fleet", "-s", "1M", "--times", "3", "--verify",
                                   "--threshold", "0", "--transport", "tcp", "--format", "json", "-q"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = cases_of(r.out);  // rank 0 alone prints
  expect_fleet(cases, 4);
  const CaseResult& m = cases.back();
  EXPECT_EQ(m.config.at("transport"), "tcp");
  EXPECT_EQ(m.config.at("max_pairs"), 0);
  EXPECT_EQ(m.config.at("confirm"), true);
  EXPECT_TRUE(m.config.at("cleared").empty());
  EXPECT_EQ(metric(m, "flagged"), 0.0);
  EXPECT_TRUE(m.config.at("flagged").empty());
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) EXPECT_EQ(cases[i].label("verdict"), "ok");
}

TEST(FleetMpi, ThreeRanksOnePairAtATimeOverTheDefaultTransport) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = test::run_mpirun({"-n", "3", XB_BINARY, "fleet", "-s", "1M", "--times", "3", "--max-pairs", "1",
                                   "--verify", "--threshold", "0", "--no-confirm", "--format", "json", "-q"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto cases = cases_of(r.out);
  expect_fleet(cases, 3);
  EXPECT_EQ(cases.back().config.at("max_pairs"), 1);
  EXPECT_EQ(cases.back().config.at("confirm"), false);
}

TEST(FleetMpi, TheTableShowsTheMatrix) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = test::run_mpirun({"-n", "2", XB_BINARY, "fleet", "-s", "64K", "--times", "2", "--threshold", "0",
                                   "--transport", "tcp", "--hip", "127.0.0.1"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("[[ fleet ]] fleet of 2 ranks: 2 links, 0 below 0 x the median link"), std::string::npos) << r.out;
  // Each rank by its host name and the address it serves on (issue 17).
  const std::string r0 = "rank 0 (" + host_name() + " 127.0.0.1)", r1 = "rank 1 (" + host_name() + " 127.0.0.1)";
  const std::string head = "  from \\ to" + std::string(r0.size() - 9, ' ') + "  " + r0 + "  " + r1 + "\n";
  EXPECT_NE(r.out.find(head), std::string::npos) << r.out;
}

TEST(FleetMpi, OneRankIsNotAFleet) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = test::run_mpirun({"-n", "1", XB_BINARY, "fleet", "-s", "4K", "--times", "1", "-q"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("xferbench fleet: needs 2 ranks or more, one per node; this job has 1\n"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

// Ranks started with different plans (mpirun's MPMD form: each rank its own command line) refuse
// to run, and the message names the fleet command's own flags (--times, not another tool's --et).
TEST(FleetMpi, RanksWithDifferentPlansRefuseInTheirOwnFlags) {
  if (!test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = test::run_mpirun({"-n", "1", XB_BINARY, "fleet", "-s", "4K", "--times", "2", "--max-pairs", "1",
                                   "--transport", "tcp", "-q", ":", "-n", "1", XB_BINARY, "fleet", "-s", "4K",
                                   "--times", "3", "--max-pairs", "1", "--transport", "tcp", "-q"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.err.find("error: the ranks disagree: rank 0 runs with -s 4096, --times 2, 1 warm-up, verify off, "
                       "transport tcp, --max-pairs 1, --threshold 0.8"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("rank 1 with -s 4096, --times 3,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--matrix-max-ranks "), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(FleetCli, BadInputIsRefusedBeforeMpiStarts) {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--threshold", "1.5"}, "--threshold 1.5: expected a fraction of the median link from 0 to 1 (0.8: flag links "
                               "below 80% of the median; 0: flag none)"},
      {{"--threshold", "x"}, "--threshold x: expected a fraction of the median link from 0 to 1 (0.8: flag links "
                             "below 80% of the median; 0: flag none)"},
      {{"--max-pairs", "-1"}, "--max-pairs -1:"},
      {{"--transport", "smoke"}, "--transport smoke: this build has"},
      {{"-s", "5G"}, "-s"},
      {{"--times", "0"}, "--times 0:"},
      {{"--device", "-1"}, "--device -1:"},
      {{"--hip", "not an address"}, "--hip"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"fleet"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = xbtest::run_binary(XB_BINARY, args);
    SCOPED_TRACE(c.args.front());
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.err.rfind("xferbench fleet: " + c.message, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace xb
