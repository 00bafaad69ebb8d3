// The gdsio dialect and the io job's transfer types through the real binary, as `xferbench gdsio`
// and through the `gdsio` link name: gdsio's line (fields in order, six decimals), -V's write,
// "Verifying data" and verified read-back, GPUD refused with exit 3, and bad input: exit 2, one
// line naming the flag, nothing created. Timings are never asserted.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::TempDir;

struct CommandRun {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `PROGRAM ARGS`, capturing stdout and stderr in files of `scratch` (not the directory under
// test, so "nothing created" can be checked there).
CommandRun run(const std::string& program, const std::string& args, const TempDir& scratch) {
  const auto out = scratch.path() / "stdout", err = scratch.path() / "stderr";
  const std::string cmd = program + " " + args + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  CommandRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string xferbench() { return XB_BINARY; }
std::string gdsio_link() { return (std::filesystem::path(XB_BINARY).parent_path() / "gdsio").string(); }

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// gdsio's line, parsed field by field in its order.
struct GdsioLine {
  std::string io_type, xfer_type;
  unsigned long long threads = 0, moved_kib = 0, asked_kib = 0, io_kib = 0, ops = 0;
  double throughput = 0, latency = 0, seconds = 0;
};

bool parse_line(const std::string& line, GdsioLine& g) {
  static const std::regex kLine(
      "IoType: (READ|WRITE|RANDREAD|RANDWRITE) XferType: (GPUD|CPUONLY|CPU_GPU) Threads: ([0-9]+) "
      "DataSetSize: ([0-9]+)/([0-9]+)\\(KiB\\) IOSize: ([0-9]+)\\(KiB\\) Throughput: ([0-9]+\\.[0-9]{6}) GiB/sec, "
      "Avg_Latency: ([0-9]+\\.[0-9]{6}) usecs ops: ([0-9]+) total_time ([0-9]+\\.[0-9]{6}) secs");
  std::smatch m;
  if (!std::regex_match(line, m, kLine)) return false;
  g.io_type = m[1];
  g.xfer_type = m[2];
  g.threads = std::stoull(m[3]);
  g.moved_kib = std::stoull(m[4]);
  g.asked_kib = std::stoull(m[5]);
  g.io_kib = std::stoull(m[6]);
  g.throughput = std::stod(m[7]);
  g.latency = std::stod(m[8]);
  g.ops = std::stoull(m[9]);
  g.seconds = std::stod(m[10]);
  return true;
}

// A one-pass run of 2 threads x 1 MiB in 64 KiB IOs: every figure but the timings is known.
void expect_full_pass(const std::string& line, const char* io_type, const char* xfer_type) {
  GdsioLine g;
  ASSERT_TRUE(parse_line(line, g)) << line;
  EXPECT_EQ(g.io_type, io_type) << line;
  EXPECT_EQ(g.xfer_type, xfer_type) << line;
  EXPECT_EQ(g.threads, 2u);
  EXPECT_EQ(g.moved_kib, 2048u);
  EXPECT_EQ(g.asked_kib, 2048u);
  EXPECT_EQ(g.io_kib, 64u);
  EXPECT_EQ(g.ops, 32u);
  EXPECT_GT(g.throughput, 0);
  EXPECT_GT(g.latency, 0);
  EXPECT_GT(g.seconds, 0);
}

TEST(GdsioCommand, WriteWithVerifyPrintsTheWriteVerifyingDataAndTheReadBack) {
  TempDir dir, scratch;
  for (const char* x : {"1", "2"}) {
    const char* xfer = std::string(x) == "1" ? "CPUONLY" : "CPU_GPU";
    const CommandRun r =
        run(xferbench(), "gdsio -D " + dir.path().string() + " -d 0 -w 2 -s 1m -i 64k -x " + x + " -I 1 -V", scratch);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    expect_full_pass(lines[0], "WRITE", xfer);
    EXPECT_EQ(lines[1], "Verifying data");
    expect_full_pass(lines[2], "READ", xfer);
    EXPECT_EQ(std::filesystem::file_size(dir.path() / "xferbench-io.1"), 1u << 20);
  }
}

TEST(GdsioCommand, ThroughTheLinkNameEveryIoTypeAndTransfer) {
  TempDir dir, scratch;
  const std::string d = "-D " + dir.path().string() + " -w 2 -s 1m -i 64k ";
  // Random write with -V through CPU_GPU: RANDWRITE, then the random read-back.
  CommandRun r = run(gdsio_link(), d + "-x 2 -I 3 -V", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  expect_full_pass(lines[0], "RANDWRITE", "CPU_GPU");
  EXPECT_EQ(lines[1], "Verifying data");
  expect_full_pass(lines[2], "RANDREAD", "CPU_GPU");
  // Read runs of what is there, -V checking what they read: one line each.
  const struct {
    const char* args;
    const char* io_type;
    const char* xfer;
  } reads[] = {{"-x 1 -I 0 -V", "READ", "CPUONLY"},
               {"-x 1 -I 2 -V", "RANDREAD", "CPUONLY"},
               {"-x 2 -I 0", "READ", "CPU_GPU"},
               {"-x 2 -I 2 -V", "RANDREAD", "CPU_GPU"}};
  for (const auto& c : reads) {
    r = run(gdsio_link(), d + c.args, scratch);
    ASSERT_EQ(r.code, 0) << c.args << ": " << r.err;
    lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 1u) << r.out;
    expect_full_pass(lines[0], c.io_type, c.xfer);
  }
  // One file, a region per thread, and a time-bounded run (figures unknown, format the same).
  const std::string f = "-f " + (dir.path() / "one").string() + " -w 2 -s 1m -i 64k ";
  r = run(xferbench(), "gdsio " + f + "-x 1 -I 1 -V", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 3u) << r.out;
  r = run(xferbench(), "gdsio " + f + "-x 2 -I 2 -T 1", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  GdsioLine g;
  ASSERT_TRUE(parse_line(lines[0], g)) << lines[0];
  EXPECT_EQ(g.io_type, "RANDREAD");
  EXPECT_EQ(g.asked_kib, 2048u);
  EXPECT_EQ(g.moved_kib, g.ops * 64);
}

TEST(GdsioCommand, GpuDirectIsUnavailableHereWithExitThree) {
  TempDir dir, scratch;
  for (const std::string& cmd : {xferbench() + " gdsio", gdsio_link()}) {
    const CommandRun r = run(cmd, "-D " + dir.path().string() + " -w 2 -s 1m -i 64k -x 0 -I 1 -V", scratch);
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("not available on this machine: GPUD needs "), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(dir.entries().empty());
  }
  const CommandRun r = run(xferbench(), "io -D " + dir.path().string() + " --rw write -s 1M -i 64K --xfer gpu-direct",
                           scratch);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("not available on this machine: GPUD needs "), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(IoCommandTransfer, CpuGpuRoundTripThroughTheBinary) {
  TempDir dir, scratch;
  const std::string d = "io -D " + dir.path().string() + " -w 2 -s 512K -i 16K --xfer cpu-gpu --device 1 ";
  CommandRun r = run(xferbench(), d + "--rw randwrite --engine io_uring --qd 4 --format json", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"transfer\": \"cpu-gpu\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"key\": \"xfer\""), std::string::npos) << r.out;  // the label
  r = run(xferbench(), d + "--rw read --engine libaio --qd 2 --verify --backend cpu --quiet", scratch);
  EXPECT_EQ(r.code, 0) << r.err;
}

std::string expand(std::string s, const TempDir& dir) {
  for (auto at = s.find("{dir}"); at != std::string::npos; at = s.find("{dir}")) s.replace(at, 5, dir.path().string());
  return s;
}

TEST(GdsioCommand, BadInputIsOneLineNamingTheFlagAndCreatesNothing) {
  const struct {
    const char* args;
    const char* flag;
  } cases[] = {
      {"-D {dir} -w 2 -s 1m -i 64k -x 7 -I 1", "-x 7"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 4", "-I 4"},
      {"-D {dir} -w 2 -s 1m -i 64k -x one -I 1", "-x one"},
      {"-D {dir} -w 0 -s 1m -i 64k -x 1 -I 1", "-w 0"},
      {"-w 2 -s 1m -i 64k -x 1 -I 1", "-D"},
      {"-D {dir} -f {dir}/f -w 2 -s 1m -i 64k -x 1 -I 1", "-D"},
      {"-D {dir} -w 2 -s 4k -i 64k -x 1 -I 1", "-s 4K"},
      {"-D {dir} -w 2 -s 1m -i 64k -I 1", "-x"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1", "-I"},
      {"-D {dir} -w 2 -s 1m -i 1000 -x 1 -I 1", "-i 1000"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 -V -T 1", "-V"},
      {"-D {dir}/missing -w 2 -s 1m -i 64k -x 2 -I 1", "-D"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 --bogus", "--bogus"},
  };
  TempDir scratch;
  for (const auto& c : cases) {
    TempDir dir;
    for (const std::string& program : {xferbench() + " gdsio", gdsio_link()}) {
      const CommandRun r = run(program, expand(c.args, dir), scratch);
      EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
      EXPECT_EQ(lines_of(r.err).size(), 1u) << c.args << ": " << r.err;
      EXPECT_NE(r.err.find(expand(c.flag, dir)), std::string::npos) << c.args << ": " << r.err;
      EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
      EXPECT_TRUE(dir.entries().empty()) << c.args;  // nothing created
    }
  }
  TempDir dir;
  const CommandRun r = run(xferbench(), "io -D " + dir.path().string() + " --rw write -s 1M -i 64K --xfer gpu", scratch);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--xfer gpu"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace xb
