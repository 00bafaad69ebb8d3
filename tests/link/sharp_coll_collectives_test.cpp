// sharp_coll_test's collective tester (the MPI tester's perf mode): its headers and rows rendered
// from known figures in the tester's printf formats; its command line parsed onto the coll plan
// (defaults, -c order, -N, -t, -T, -B, -r, -H, -D, -M, -s rounding, getopt_long prefixes); the
// plan's size ladder; and the real binary under `mpirun -n N` through the sharp_coll_test_mpi link,
// every block and row parsed and checked (comm size, the size column of each collective, bandwidth
// = bytes / avg latency in decimal Gb/s, min <= avg <= max, iters), split groups, a singleton run
// without mpirun, and bad input refused before MPI starts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/error.hpp"
#include "dialects/sharp_coll_test.hpp"
#include "jobs/coll/coll_config.hpp"
#include "jobs/coll/coll_plan.hpp"
#include "run_binary.hpp"
#include "support/mpi_run.hpp"

namespace xb {
namespace {

bool only_lo(std::string_view name) { return name == "lo"; }

CaseResult coll_case(const std::string& op, std::uint64_t size, int ranks, double avg, double min, double max,
                     double bw, std::uint64_t iters) {
  CaseResult c;
  c.name = op;
  CollConfig config;
  config.collective = op;
  config.size = size;
  config.ranks = ranks;
  config.outstanding = 128;
  config.root = 1;
  c.config = config;
  c.metrics = {{"latency_avg", avg, "us", ""},
               {"latency_min", min, "us", ""},
               {"latency_max", max, "us", ""},
               {"bandwidth", bw, "Gb/s", ""},
               {"iterations", static_cast<double>(iters), "count", ""}};
  return c;
}

TEST(SharpCollectivesGolden, HeadersAndRowsInTheTestersFormats) {
  EXPECT_EQ(render_sharp_coll_header(coll_case("allreduce", 4, 2, 0, 0, 0, 0, 0)),
            "\nAllreduce perf test. comm_size:2\n"
            "   #size(bytes)     Avg lat(us)     Min lat(us)     Max lat(us)    Avg BW(Gb/s)      iters\n");
  EXPECT_EQ(render_sharp_coll_row(coll_case("allreduce", 4, 2, 3.21, 2.9, 10.5, 0.00997, 100)),
            "              4            3.21            2.90           10.50            0.01        100\n");
  EXPECT_EQ(render_sharp_coll_header(coll_case("iallreduce", 4, 8, 0, 0, 0, 0, 0)).substr(0, 69),
            "\nNon-Blocking Allreduce perf test. comm_size:8 #num_nonblock_ops:128\n");
  EXPECT_EQ(render_sharp_coll_header(coll_case("reduce", 4, 3, 0, 0, 0, 0, 0)).substr(0, 43),
            "\nReduce perf test. comm_size:3 reduce root:");
  EXPECT_NE(render_sharp_coll_header(coll_case("bcast", 4, 3, 0, 0, 0, 0, 0)).find("Bcast perf test. comm_size:3 bcast root:1\n"),
            std::string::npos);
  EXPECT_NE(render_sharp_coll_header(coll_case("reduce_scatter", 4, 3, 0, 0, 0, 0, 0)).find("\nReduce-scatter perf test. comm_size:3\n"),
            std::string::npos);
  EXPECT_NE(render_sharp_coll_header(coll_case("allgather", 4, 3, 0, 0, 0, 0, 0)).find("\nAllgather perf test. comm_size:3\n"),
            std::string::npos);
  EXPECT_EQ(render_sharp_coll_header(coll_case("barrier", 0, 2, 0, 0, 0, 0, 0)),
            "\nBarrier perf test. comm_size:2\n       Avg        Min        Max      iters\n");
  EXPECT_EQ(render_sharp_coll_row(coll_case("barrier", 0, 2, 2.5, 2.1, 9.8, 0, 100)),
            "      2.50       2.10       9.80        100\n");
  EXPECT_EQ(sharp_group_title({GroupLayout::Kind::world, 2}), "");
  EXPECT_EQ(sharp_group_title({GroupLayout::Kind::split, 2}), "Comm split (default: Odd/even)");
  EXPECT_EQ(sharp_group_title({GroupLayout::Kind::half, 2}), "Comm Split Half");
}

TEST(SharpCollectivesParse, AnyTesterOptionSelectsItWithItsDefaults) {
  EXPECT_FALSE(parse_sharp_coll_test({"-s", "4:1K"}, only_lo).collectives) << "the HCA-to-TOR test stays the default";
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--mode", "perf"}, {"-m", "perf"}, {"-c", "allreduce,barrier"},
                                             {"-N", "8"}, {"-t", "world"}, {"-T", "int"}, {"-B", "1"}, {"-r", "0"},
                                             {"-H", "malloc"}, {"-D", "contig"}, {"-C", "2"}, {"-p", "1"}}) {
    const auto req = parse_sharp_coll_test(args, only_lo);
    ASSERT_TRUE(req.collectives) << args[0];
  }
  const CollPlan p = parse_sharp_coll_test({"-m", "perf"}, only_lo).collectives->plan;
  EXPECT_EQ(p.collectives, (std::vector<Collective>{Collective::allreduce, Collective::barrier}));
  EXPECT_EQ(p.min_bytes, 4u);
  EXPECT_EQ(p.max_bytes, 256u);
  EXPECT_EQ(p.iterations, 1000u);
  EXPECT_EQ(p.warmup, 100u);
  EXPECT_EQ(p.outstanding, 512u);
  EXPECT_TRUE(p.line_up);
  EXPECT_EQ(p.type, ElementType::int32);
  EXPECT_FALSE(p.root);
}

TEST(SharpCollectivesParse, TheTestersOptionsOntoThePlan) {
  // The command line of the SHARP plugin's CI, with getopt_long's prefix --skip for --skips.
  const auto req = parse_sharp_coll_test({"-d", "lo:1", "--iters", "100", "--skip", "20", "--mode", "perf",
                                          "--collectives", "barrier,allgather,allreduce,iallreduce,reduce_scatter",
                                          "-N", "128", "-s", "3:1000", "-T", "double", "-B", "0", "-r", "1", "-H",
                                          "hugethp", "-t", "split:3", "--coll", "bcast,reduce,allreduce"},
                                         only_lo);
  ASSERT_TRUE(req.collectives);
  const SharpCollectives& c = *req.collectives;
  // The last -c wins (getopt_long overwrites); the perf mode's fixed order whatever -c's order.
  EXPECT_EQ(c.plan.collectives, (std::vector<Collective>{Collective::allreduce, Collective::reduce, Collective::bcast}));
  EXPECT_EQ(c.plan.iterations, 100u);
  EXPECT_EQ(c.plan.warmup, 20u);
  EXPECT_EQ(c.plan.outstanding, 128u);
  EXPECT_EQ(c.plan.min_bytes, 4u) << "MIN rounded up to a power of two";
  EXPECT_EQ(c.plan.max_bytes, 512u) << "MAX rounded down";
  EXPECT_EQ(c.plan.type, ElementType::float64);
  EXPECT_FALSE(c.plan.line_up);
  EXPECT_EQ(c.plan.root, 1);
  EXPECT_EQ(c.allocation, HostAllocation::hugethp);
  EXPECT_EQ(c.layout.kind, GroupLayout::Kind::split);
  EXPECT_EQ(c.layout.parts, 3);
  EXPECT_EQ(req.net_devices, "lo");
  const auto env = sharp_coll_test_ucx_environment(req);
  ASSERT_EQ(env.size(), 1u) << "MPI chooses its own transports: no UCX_TLS";
  EXPECT_EQ(env[0].name, "UCX_NET_DEVICES");

  const auto ordered = parse_sharp_coll_test({"-c", "allgather,reduce_scatter,bcast,barrier,reduce,iallreduce,allreduce"}, only_lo);
  EXPECT_EQ(ordered.collectives->plan.collectives,
            (std::vector<Collective>{Collective::allreduce, Collective::iallreduce, Collective::reduce,
                                     Collective::barrier, Collective::bcast, Collective::reduce_scatter,
                                     Collective::allgather}));
  EXPECT_EQ(parse_sharp_coll_test({"-c", "all"}, only_lo).collectives->plan.collectives,
            (std::vector<Collective>{Collective::allreduce, Collective::iallreduce, Collective::barrier}));
  EXPECT_EQ(parse_sharp_coll_test({"-c", "allgather,none,bcast,ireduce"}, only_lo).collectives->plan.collectives,
            (std::vector<Collective>{Collective::bcast}));
  const std::map<std::string, GroupLayout::Kind> groups{
      {"world", GroupLayout::Kind::world},         {"world-dup", GroupLayout::Kind::world_dup},
      {"world-rev", GroupLayout::Kind::world_rev}, {"half", GroupLayout::Kind::half},
      {"split:2", GroupLayout::Kind::split},       {"split-rev:4", GroupLayout::Kind::split_rev},
      {"split:ppn-comm", GroupLayout::Kind::ppn_comm}, {"split:ppn-jobs", GroupLayout::Kind::ppn_jobs}};
  for (const auto& [text, kind] : groups) {
    EXPECT_EQ(parse_sharp_coll_test({"-t", text}, only_lo).collectives->layout.kind, kind) << text;
  }
  const std::map<std::string, ElementType> types{{"half_int", ElementType::int16}, {"int", ElementType::int32},
                                                 {"float", ElementType::float32}, {"long", ElementType::int64},
                                                 {"double", ElementType::float64}, {"byte", ElementType::int8}};
  for (const auto& [text, type] : types) {
    EXPECT_EQ(parse_sharp_coll_test({"-T", text}, only_lo).collectives->plan.type, type) << text;
  }
}

TEST(SharpCollectivesParse, BadInputIsUsageAbsentPathsAreUnavailable) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"-c", "allreduce,alltoall"}, {"-c", ""}, {"-c", "none"}, {"-N", "0"}, {"-N", "513"}, {"-m", "fast"},
           {"-t", "quarter"}, {"-t", "split:0"}, {"-t", "world:2"}, {"-T", "int128"}, {"-H", "mmap"},
           {"-D", "strided"}, {"-B", "-1"}, {"-r", "x"}, {"-m", "perf", "-f", "4"}, {"-m", "perf", "-M", "null"},
           {"-m", "perf", "-i", "0"}, {"-m", "perf", "-s", "2G"}, {"-T", "double", "-s", "4"}}) {
    EXPECT_THROW(parse_sharp_coll_test(args, only_lo), UsageError) << args[0] << " " << args[1];
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"-T", "half_float"}, {"-D", "iov"}, {"-m", "perf", "-M", "cuda"}, {"-m", "perf", "-M", "host:cuda"},
           {"-m", "perf", "-d", "mlx5_0:1"}}) {
    EXPECT_THROW(parse_sharp_coll_test(args, only_lo), Unavailable) << args[0] << " " << args[1];
  }
}

TEST(CollPlan, TheSizeLadderAndTheBytesEachRowNames) {
  CollPlan p;
  p.min_bytes = 4;
  p.max_bytes = 64;
  EXPECT_EQ(coll_counts(p, Collective::allreduce, 4), (std::vector<std::uint64_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(coll_counts(p, Collective::barrier, 4), (std::vector<std::uint64_t>{0}));
  p.type = ElementType::float64;
  p.min_bytes = 4;  // below one element: the ladder starts at one
  EXPECT_EQ(coll_counts(p, Collective::allreduce, 4), (std::vector<std::uint64_t>{1, 2, 4, 8}));
  // allgather receives every rank's block: capped at 512 MiB in all, as the tester caps it.
  p.type = ElementType::int8;
  p.min_bytes = 64u << 20;
  p.max_bytes = 1u << 30;
  EXPECT_EQ(coll_counts(p, Collective::allgather, 4), (std::vector<std::uint64_t>{64u << 20, 128u << 20}));
  EXPECT_EQ(coll_counts(p, Collective::allgather, 2), (std::vector<std::uint64_t>{64u << 20, 128u << 20, 256u << 20}));
  EXPECT_EQ(coll_counts(p, Collective::allreduce, 2).back(), 1u << 30) << "the cap is allgather's alone";
  EXPECT_EQ(coll_row_bytes(Collective::allreduce, 64, 4), 64u);
  EXPECT_EQ(coll_row_bytes(Collective::reduce_scatter, 64, 4), 256u);
  EXPECT_EQ(coll_row_bytes(Collective::allgather, 64, 4), 256u);
  p.outstanding = 16;
  EXPECT_EQ(coll_moved_bytes(p, Collective::iallreduce, 64, 4), 1024u);
  EXPECT_EQ(coll_moved_bytes(p, Collective::allreduce, 64, 4), 64u);
}

// ---- the real binary ---------------------------------------------------------------------------

using xbtest::beside_binary;

struct Block {
  std::string title;
  std::vector<std::vector<double>> rows;
};

// The blocks of the tester's output: a blank line, a title, the column header, the rows.
std::vector<Block> parse_blocks(const std::string& out, std::vector<std::string>* others = nullptr) {
  const auto lines = xbtest::split_lines(out);
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) {
      EXPECT_LT(i + 2, lines.size()) << out;
      if (i + 2 >= lines.size()) break;
      Block b;
      b.title = lines[i + 1];
      const bool barrier = b.title.rfind("Barrier", 0) == 0;
      EXPECT_EQ(lines[i + 2], barrier ? "       Avg        Min        Max      iters"
                                      : "   #size(bytes)     Avg lat(us)     Min lat(us)     Max lat(us)    Avg BW(Gb/s)      iters")
          << b.title;
      i += 3;
      for (; i < lines.size() && !lines[i].empty() && lines[i].rfind("MPI COMM", 0) != 0; ++i) {
        EXPECT_EQ(lines[i].size(), barrier ? 4u * 10 + 3 : 5u * 15 + 10 + 5) << lines[i];
        std::istringstream in(lines[i]);
        std::vector<double> row;
        for (double v = 0; in >> v;) row.push_back(v);
        EXPECT_EQ(row.size(), barrier ? 4u : 6u) << lines[i];
        b.rows.push_back(row);
      }
      --i;
      blocks.push_back(b);
    } else if (others != nullptr) {
      others->push_back(lines[i]);
    }
  }
  return blocks;
}

// A sized block: sizes doubling from `first`, figures consistent with each other.
void expect_rows(const Block& b, std::uint64_t first, std::size_t count, std::uint64_t iters, std::uint64_t bw_factor = 1) {
  SCOPED_TRACE(b.title);
  ASSERT_EQ(b.rows.size(), count);
  std::uint64_t size = first;
  for (const auto& r : b.rows) {
    EXPECT_EQ(r[0], static_cast<double>(size));
    EXPECT_GT(r[1], 0.0);
    EXPECT_LE(r[2], r[1] + 0.01);
    EXPECT_GE(r[3] + 0.01, r[1]);
    // Avg BW(Gb/s): bytes (times the operations outstanding) * 8 / avg us / 1e3, from the avg before
    // it was printed to two decimals (so anywhere within 0.005 us of the printed one) and itself
    // printed to two decimals. The bounds are exact, not first-order: at an avg of 0.04 us printed
    // from 0.035, the bandwidth is 14% above the one the printed avg gives.
    const double bits = static_cast<double>(size * bw_factor) * 8;
    const double low = bits / (r[1] + 0.0051) / 1e3 - 0.006;
    const double high = r[1] > 0.0051 ? bits / (r[1] - 0.0051) / 1e3 + 0.006 : 1e300;
    EXPECT_GE(r[4], low) << "avg " << r[1] << " us";
    EXPECT_LE(r[4], high) << "avg " << r[1] << " us";
    EXPECT_EQ(r[5], static_cast<double>(iters));
    size *= 2;
  }
}

TEST(SharpCollectivesMpi, EveryCollectiveOfTheRealCommandLineUnderMpirun) {
  if (!xb::test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = xb::test::run_mpirun(
      {"-n", "3", beside_binary("sharp_coll_test_mpi"), "-d", "lo:1", "--iters", "20", "--skip", "2", "--mode", "perf",
       "--collectives", "allreduce,iallreduce,barrier,reduce_scatter,allgather,reduce,bcast", "-N", "4", "-s",
       "4:1K"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  std::vector<std::string> others;
  const auto blocks = parse_blocks(r.out, &others);
  EXPECT_TRUE(others.empty()) << r.out;  // rank 0 alone prints: no MPI COMM line for the world
  ASSERT_EQ(blocks.size(), 7u) << r.out;
  EXPECT_EQ(blocks[0].title, "Allreduce perf test. comm_size:3");
  EXPECT_EQ(blocks[1].title, "Non-Blocking Allreduce perf test. comm_size:3 #num_nonblock_ops:4");
  EXPECT_EQ(blocks[2].title, "Reduce perf test. comm_size:3 reduce root:2");
  EXPECT_EQ(blocks[3].title, "Barrier perf test. comm_size:3");
  EXPECT_EQ(blocks[4].title, "Bcast perf test. comm_size:3 bcast root:0");
  EXPECT_EQ(blocks[5].title, "Reduce-scatter perf test. comm_size:3");
  EXPECT_EQ(blocks[6].title, "Allgather perf test. comm_size:3");
  expect_rows(blocks[0], 4, 9, 20);
  expect_rows(blocks[1], 4, 9, 20, 4);
  expect_rows(blocks[2], 4, 9, 20);
  ASSERT_EQ(blocks[3].rows.size(), 1u);
  EXPECT_EQ(blocks[3].rows[0][3], 20.0);
  EXPECT_LE(blocks[3].rows[0][1], blocks[3].rows[0][2] + 0.01);
  expect_rows(blocks[4], 4, 9, 20);
  expect_rows(blocks[5], 12, 9, 20);  // the size column: what each rank sends, 3 blocks
  expect_rows(blocks[6], 12, 9, 20);  // what each rank receives
  EXPECT_NE(r.err.find("no SHARP offload here"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("wrong result"), std::string::npos) << r.err;
}

TEST(SharpCollectivesMpi, SplitGroupsEachPrintTheirOwnBlocks) {
  if (!xb::test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const auto r = xb::test::run_mpirun({"-n", "4", beside_binary("sharp_coll_test_mpi"), "-c", "allreduce", "-t",
                                       "split:2", "-T", "byte", "-i", "5", "-x", "1", "-s", "1:8"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  std::vector<std::string> others;
  const auto blocks = parse_blocks(r.out, &others);
  EXPECT_EQ(others, (std::vector<std::string>(2, "MPI COMM Type : Comm split (default: Odd/even)"))) << r.out;
  ASSERT_EQ(blocks.size(), 2u) << r.out;
  for (const Block& b : blocks) {
    EXPECT_EQ(b.title, "Allreduce perf test. comm_size:2");
    expect_rows(b, 1, 4, 5);
  }
}

// xferbench's judging in the dialect (issue 17 item 3): the tool's tables exactly as without it,
// then one line per case on stderr; exit 1 on a FAIL. -d is recorded for the ceiling.
TEST(SharpCollectivesParse, ExpectationsAndTheDeviceOntoTheRequest) {
  const auto req = parse_sharp_coll_test({"-c", "allreduce", "-d", "lo", "--expect-rule", "coll=1 GB/s", "--expect-rule",
                                          "link=0.5", "--expect", "site.yaml"},
                                         only_lo);
  ASSERT_TRUE(req.collectives);
  EXPECT_EQ(req.collectives->plan.net_device, "lo");
  EXPECT_EQ(req.expect.rules, (std::vector<std::string>{"coll=1 GB/s", "link=0.5"}));
  EXPECT_EQ(req.expect.file, "site.yaml");
  EXPECT_EQ(parse_sharp_coll_test({"-c", "allreduce"}, only_lo).collectives->plan.net_device, "");
}

TEST(SharpCollectivesMpi, ExpectationsJudgeEachRowAfterTheTables) {
  if (!xb::test::have_mpirun()) GTEST_SKIP() << "no mpirun (scripts/setup.sh installs openmpi-bin)";
  const std::vector<std::string> run{"-n", "2", beside_binary("sharp_coll_test_mpi"), "-c", "allreduce,barrier",
                                     "-i", "5", "-x", "1", "-s", "64K:128K", "--expect-rule"};
  auto args = run;
  args.push_back("coll=100000 GB/s");
  auto r = xb::test::run_mpirun(args);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  auto blocks = parse_blocks(r.out);
  ASSERT_EQ(blocks.size(), 2u) << r.out;  // the tables as the tool prints them
  expect_rows(blocks[0], 64 << 10, 2, 5);
  const auto lines = xbtest::split_lines(r.err);
  const auto count = [&](const std::string& what) {
    return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(what) != std::string::npos; });
  };
  EXPECT_EQ(count("sharp_coll_test: allreduce of "), 2) << r.err;
  EXPECT_EQ(count(": FAIL by coll bandwidth ≥ 100000 GB/s (command line, --expect-rule 1)"), 2) << r.err;
  EXPECT_EQ(count("sharp_coll_test: barrier of 2 ranks: unjudged: "), 1) << r.err;

  args = run;
  args.push_back("coll=0.001 GB/s");
  r = xb::test::run_mpirun(args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.err.find(": PASS by coll bandwidth ≥ 0.001 GB/s"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("FAIL"), std::string::npos) << r.err;

  // A malformed rule: one line, exit 2, before MPI starts (a singleton: one rank).
  const auto bad = xbtest::run_binary(beside_binary("sharp_coll_test"), {"-c", "allreduce", "--expect-rule", "coll=fast"});
  ASSERT_TRUE(bad.exited) << bad.describe();
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err, "sharp_coll_test: --expect-rule 'coll=fast': ceiling_fraction: 'fast' is not a number\n");
}

TEST(SharpCollectivesMpi, WithoutMpirunOneRankRunsIt) {
  // A singleton: MPI_Init without mpirun, so Open MPI's own leaks are suppressed as under mpirun.
  const auto r = xbtest::run_binary(beside_binary("sharp_coll_test"), {"-c", "allreduce,barrier", "-i", "5", "-x", "1",
                                                                   "-s", "8", "-T", "long"},
                                    test::mpi_options());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto blocks = parse_blocks(r.out);
  ASSERT_EQ(blocks.size(), 2u) << r.out;
  EXPECT_EQ(blocks[0].title, "Allreduce perf test. comm_size:1");
  expect_rows(blocks[0], 8, 1, 5);
  EXPECT_EQ(blocks[1].title, "Barrier perf test. comm_size:1");
}

TEST(SharpCollectivesMpi, BadInputIsOneLineAndExit2BeforeMpiStarts) {
  const auto r = xbtest::run_binary(beside_binary("sharp_coll_test_mpi"), {"-c", "allreduce,alltoall"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_TRUE(r.out.empty()) << r.out;
  const auto lines = xbtest::split_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_NE(lines[0].find("-c allreduce,alltoall"), std::string::npos) << r.err;
  const auto absent = xbtest::run_binary(beside_binary("sharp_coll_test_mpi"), {"-m", "perf", "-T", "half_float"});
  EXPECT_TRUE(absent.exited && absent.exit_code == 3) << absent.describe();
}

}  // namespace
}  // namespace xb
