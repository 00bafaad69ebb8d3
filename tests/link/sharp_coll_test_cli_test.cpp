// The sharp_coll_test dialect end to end: `xferbench sharp_coll_test` and the binary invoked
// through its sharp_coll_test link, on a real loopback link. The header as the seed's, each row
// parsed and checked for consistency (bandwidth = size / avg latency in decimal Gb/s, sizes
// following the factor, the iters column), -d with a real and an unknown device, bad input.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "jobs/link/link_plan.hpp"
#include "run_binary.hpp"

namespace xb {
namespace {

using xbtest::beside_binary;

// Through `xferbench sharp_coll_test ARGS` or, with `via_link`, the sharp_coll_test link.
xbtest::RunResult sharp(const std::string& args, bool via_link = false) {
  auto a = xbtest::split_words(args);
  if (via_link) return xbtest::run_binary(beside_binary("sharp_coll_test"), a);
  a.insert(a.begin(), "sharp_coll_test");
  return xbtest::run_binary(XB_BINARY, a);
}

struct Row {
  std::uint64_t size = 0;
  double avg = 0, min = 0, max = 0, bw = 0;
  std::uint64_t iters = 0;
};

// Checks the header lines and parses every row (each exactly the seed's widths: 15 + 4 x 16 + 11).
std::vector<Row> parse_table(const std::string& out, const std::string& mem_type) {
  const auto lines = xbtest::split_lines(out);
  EXPECT_GE(lines.size(), 4u) << out;
  if (lines.size() < 4) return {};
  EXPECT_EQ(lines[0], "");
  EXPECT_EQ(lines[1], "HCA < -- > TOR Bandwidth test. mem_type: " + mem_type);
  EXPECT_EQ(lines[2], "   #size(bytes)     Avg lat(us)     Min lat(us)     Max lat(us)    Avg BW(Gb/s)      iters");
  std::vector<Row> rows;
  for (std::size_t i = 3; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].size(), 15u + 4 * 16 + 11) << lines[i];
    std::istringstream in(lines[i]);
    Row r;
    in >> r.size >> r.avg >> r.min >> r.max >> r.bw >> r.iters;
    EXPECT_TRUE(in && in.eof()) << lines[i];
    rows.push_back(r);
  }
  return rows;
}

void expect_consistent(const std::vector<Row>& rows, std::uint64_t min, std::uint64_t step, std::size_t count,
                       std::uint64_t iters) {
  ASSERT_EQ(rows.size(), count);
  std::uint64_t size = min;
  for (const Row& r : rows) {
    EXPECT_EQ(r.size, size);
    EXPECT_EQ(r.iters, iters);
    EXPECT_GT(r.avg, 0.0);
    EXPECT_LE(r.min, r.avg);
    EXPECT_GE(r.max, r.avg);
    // The row's bandwidth from its own printed (rounded) average: equal within the rounding of both.
    const double from_avg = link_bandwidth_gbps(r.size, r.avg);
    EXPECT_NEAR(r.bw, from_avg, 0.0051 + from_avg * 0.0051 / r.avg) << r.size;
    size *= step;
  }
}

TEST(SharpCollTestCommand, HostSweepThroughTheCommandAndTheLink) {
  for (const bool via_link : {false, true}) {
    SCOPED_TRACE(via_link ? "link" : "command");
    const auto r = sharp("-M host -s 4:4K -f 4 -i 5 -x 1", via_link);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    expect_consistent(parse_table(r.out, "HOST:HOST"), 4, 4, 6, 5);  // 4, 16, 64, 256, 1K, 4K
  }
}

// xferbench's judging in the HCA-to-TOR test (issue 17): the table unchanged, then a verdict line per
// size on stderr (path kind link), exit 1 on a FAIL.
TEST(SharpCollTestCommand, ExpectationsJudgeTheLinkAfterTheTable) {
  const auto judged = [](const std::string& rule, const std::string& sizes, const std::string& program) {
    std::vector<std::string> a;
    if (program == XB_BINARY) a.emplace_back("sharp_coll_test");
    for (const std::string& w : {std::string("-M"), std::string("host"), std::string("-s"), sizes, std::string("-i"),
                                 std::string("3"), std::string("-x"), std::string("1"), std::string("--expect-rule"), rule}) {
      a.push_back(w);
    }
    return xbtest::run_binary(program, a);
  };
  auto r = judged("link=100000 GB/s", "64K:128K", XB_BINARY);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  expect_consistent(parse_table(r.out, "HOST:HOST"), 64 << 10, 2, 2, 3);
  const auto lines = xbtest::split_lines(r.err);
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) {
                            return l.rfind("sharp_coll_test: ", 0) == 0 &&
                                   l.find(": FAIL by link bandwidth ≥ 100000 GB/s (command line, --expect-rule 1)") !=
                                       std::string::npos;
                          }),
            2)
      << r.err;
  r = judged("link=0.001 GB/s", "64K:64K", beside_binary("sharp_coll_test"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.err.find(": PASS by link bandwidth ≥ 0.001 GB/s"), std::string::npos) << r.err;
}

// SHARP's MPI build is the same test under another name; its scripts call it so.
TEST(SharpCollTestCommand, TheMpiNameRunsTheSameTest) {
  std::vector<std::string> a;
  for (const char* w : {"-M", "host", "-s", "4:64", "-f", "4", "-i", "3", "-x", "0"}) a.emplace_back(w);
  const auto r = xbtest::run_binary(beside_binary("sharp_coll_test_mpi"), a);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  expect_consistent(parse_table(r.out, "HOST:HOST"), 4, 4, 3, 3);  // 4, 16, 64
}

TEST(SharpCollTestCommand, CudaAndNullMemoryAndLongFlags) {
  const auto cuda = sharp("--mem_type cuda --size 1K:64K --stepfactor 8 --iters 3 --skips 0 --jobid 7");
  ASSERT_TRUE(cuda.exited && cuda.exit_code == 0) << cuda.describe();
  expect_consistent(parse_table(cuda.out, "CUDA:CUDA"), 1024, 8, 3, 3);
  const auto null = sharp("-M null -s 16K:1M -f 8 -i 3", true);
  ASSERT_TRUE(null.exited && null.exit_code == 0) << null.describe();
  expect_consistent(parse_table(null.out, "HCA:HCA"), 16384, 8, 3, 3);
  const auto mixed = sharp("-M host:cuda -s 64K:64K -i 2");
  ASSERT_TRUE(mixed.exited && mixed.exit_code == 0) << mixed.describe();
  expect_consistent(parse_table(mixed.out, "HOST:CUDA"), 65536, 2, 1, 2);
}

TEST(SharpCollTestCommand, DevicePicksTheUcxNetDevice) {
  // -d lo: the loopback interface every machine has (port 1 is its only port).
  for (const char* dev : {"lo", "lo:1"}) {
    const auto r = sharp(std::string("-d ") + dev + " -s 4K:16K -i 3");
    ASSERT_TRUE(r.exited && r.exit_code == 0) << dev << ": " << r.describe();
    expect_consistent(parse_table(r.out, "HOST:HOST"), 4096, 2, 3, 3);
  }
}

TEST(SharpCollTestCommand, HelpPrintsTheUsage) {
  const auto r = sharp("-h", true);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.out.rfind("Usage:   sharp_coll_test[_mpi]  [OPTIONS]\n", 0), 0u) << r.out;
}

// getopt_long's rule: any unambiguous prefix of a long option is that option ("--skip" for
// "--skips"), with the value apart or after '='.
TEST(SharpCollTestCommand, LongOptionsTakeUnambiguousPrefixes) {
  const auto r = sharp("--mem host --si=4:64 --step 4 --it 3 --skip 0 --job 5");
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  expect_consistent(parse_table(r.out, "HOST:HOST"), 4, 4, 3, 3);  // 4, 16, 64
}

// A device or port this machine lacks is absent hardware: exit 3, one line, nothing printed.
TEST(SharpCollTestCommand, AnAbsentDeviceIsExitThree) {
  for (const char* args : {"-d no_such_dev0", "-d no_such_dev0:1", "-d lo:2", "--ib-dev no_such_dev0"}) {
    const auto r = sharp(args, true);
    EXPECT_TRUE(r.exited && r.exit_code == 3) << args << ": " << r.describe();
    const auto lines = xbtest::split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << args << ": " << r.err;
    EXPECT_NE(lines[0].find("not available on this machine: -d "), std::string::npos) << lines[0];
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
  }
}

TEST(SharpCollTestCommandBadInput, OneLineNamingTheFlag) {
  struct Case {
    const char* args;
    const char* flag;
    const char* rule;
  };
  const Case cases[] = {
      {"-s 8K:4K", "-s", "larger than the maximum"},
      {"-s 0", "-s", ""},
      {"-s 4K:x", "-s", ""},
      {"-f 1", "-f", "at least 2"},
      {"--stepfactor 0", "-f", "at least 2"},
      {"-M gpu", "-M", "host, cuda, null"},
      {"--mem_type host:tpu", "-M", "host, cuda, null"},
      {"-i 0", "-i", ""},
      {"-x many", "-x", ""},
      {"-d lo:x", "-d", ""},
      {"-d a/b", "-d", "expected DEV[:PORT]"},
      {"-j x", "-j", ""},
      {"--s 4:64", "--s", "ambiguous, it begins --skips, --size, --stepfactor"},
      {"--bogus", "--bogus", ""},
  };
  for (const bool via_link : {false, true}) {
    for (const auto& c : cases) {
      const auto r = sharp(c.args, via_link);
      EXPECT_TRUE(r.exited && r.exit_code == 2) << c.args << ": " << r.describe();
      const auto lines = xbtest::split_lines(r.err);
      ASSERT_EQ(lines.size(), 1u) << c.args << ": " << r.err;
      EXPECT_NE(lines[0].find(c.flag), std::string::npos) << c.args << ": " << lines[0];
      EXPECT_NE(lines[0].find(c.rule), std::string::npos) << c.args << ": " << lines[0];
      EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
    }
  }
}

}  // namespace
}  // namespace xb
