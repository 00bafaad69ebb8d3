// The gdsio dialect and the io job's transfer types through the real binary, as `xferbench gdsio`
// and through the `gdsio` link name: gdsio's line (fields in order, six decimals), -V's write,
// "Verifying data" and verified read-back, gdsio's file names and nothing beside them, every option
// of its usage text, job files, what needs absent hardware refused with exit 3, and bad input: exit
// 2, one line naming the flag, nothing created. Timings are never asserted.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/state_dir.hpp"
#include "support/temp_dir.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::ScopedStateDir;
using test::TempDir;

struct CommandRun {
  int code = -1;
  std::string out, err;
};

using test::slurp;

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
      "IoType: (READ|WRITE|RANDREAD|RANDWRITE|RW|RANDRW) XferType: "
      "(GPUD|CPUONLY|CPU_GPU|CPU_ASYNC_GPU|CPU_CACHED_GPU|GPU_ASYNC|GPU_BATCH|GPU_BATCH_STREAM) Threads: ([0-9]+) "
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
  ScopedStateDir state;
  TempDir dir, scratch;
  const std::pair<const char*, const char*> types[] = {
      {"1", "CPUONLY"}, {"2", "CPU_GPU"}, {"3", "CPU_ASYNC_GPU"}, {"4", "CPU_CACHED_GPU"}};
  for (const auto& [x, xfer] : types) {
    const CommandRun r =
        run(xferbench(), "gdsio -D " + dir.path().string() + " -d 0 -w 2 -s 1m -i 64k -x " + x + " -I 1 -V", scratch);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    expect_full_pass(lines[0], "WRITE", xfer);
    EXPECT_EQ(lines[1], "Verifying data");
    expect_full_pass(lines[2], "READ", xfer);
    // gdsio's names, and nothing beside them (the completion records live in the state directory).
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"gdsio.0", "gdsio.1"}));
    EXPECT_EQ(std::filesystem::file_size(dir.path() / "gdsio.1"), 1u << 20);
    EXPECT_EQ(state.records().size(), 2u);
  }
}

TEST(GdsioCommand, ThroughTheLinkNameEveryIoTypeAndTransfer) {
  ScopedStateDir state;
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
               {"-x 2 -I 2 -V", "RANDREAD", "CPU_GPU"},
               {"-x 3 -I 0 -V", "READ", "CPU_ASYNC_GPU"},
               {"-x 4 -I 2 -V", "RANDREAD", "CPU_CACHED_GPU"},
               {"-x 1 -I 0 -V -T 0", "READ", "CPUONLY"}};  // -T 0: until the data set is done
  for (const auto& c : reads) {
    r = run(gdsio_link(), d + c.args, scratch);
    ASSERT_EQ(r.code, 0) << c.args << ": " << r.err;
    lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 1u) << r.out;
    expect_full_pass(lines[0], c.io_type, c.xfer);
  }
  // One file whose data set of -s bytes the threads share, and a time-bounded run (figures unknown,
  // format the same).
  const std::string f = "-f " + (dir.path() / "one").string() + " -w 2 -s 2m -i 64k ";
  r = run(xferbench(), "gdsio " + f + "-x 1 -I 1 -V", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  expect_full_pass(lines[0], "WRITE", "CPUONLY");
  expect_full_pass(lines[2], "READ", "CPUONLY");
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "one"), 2u << 20);  // exactly -s bytes
  // -s left out on a read: the file's own size.
  r = run(gdsio_link(), "-f " + (dir.path() / "one").string() + " -w 2 -i 64k -x 1 -I 0 -V", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  expect_full_pass(lines_of(r.out).at(0), "READ", "CPUONLY");
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
    EXPECT_NE(r.err.find("not available on this machine: -x 0 (GPUD) needs "), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(dir.entries().empty());
  }
  const CommandRun r = run(xferbench(), "io -D " + dir.path().string() + " --rw write -s 1M -i 64K --xfer gpu-direct",
                           scratch);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("not available on this machine: --xfer gpu-direct needs "), std::string::npos) << r.err;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(GdsioCommand, WhatNeedsAbsentHardwareIsExitThreeNeverBadInput) {
  TempDir dir, scratch;
  const struct {
    const char* args;
    const char* says;
  } cases[] = {
      {"-x 0 -I 1", "-x 0 (GPUD) needs a GPU backend with GPU-direct storage"},
      {"-I 1", "-x 0 (GPUD) needs"},  // -x left out: gdsio's default, GPUD
      {"-x 5 -I 1", "-x 5 (GPU_ASYNC) needs"},
      {"-x 6 -B 8 -I 0", "-x 6 (GPU_BATCH) needs"},
      {"-x 7 -I 1", "-x 7 (GPU_BATCH_STREAM) needs"},
      {"-x 0 -m 2 -I 1", "-x 0 (GPUD) needs"},
      {"-x 1 -I 1 -P rdma://192.0.2.1:18515", "-P rdma://192.0.2.1:18515: a remote RDMA target"},
  };
  for (const auto& c : cases) {
    const CommandRun r = run(gdsio_link(), "-D " + dir.path().string() + " -w 2 -s 1m -i 64k " + c.args, scratch);
    EXPECT_EQ(r.code, 3) << c.args << ": " << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
    EXPECT_TRUE(dir.entries().empty()) << c.args;
  }
}

TEST(GdsioCommand, EveryOptionOfTheUsageTextRuns) {
  ScopedStateDir state;
  TempDir dir, scratch;
  const std::string f = "-f " + (dir.path() / "f").string() + " ";
  // A 4 MiB data set at offset 1 MiB, 4 threads, bound to NUMA node 0, every switch given.
  CommandRun r = run(gdsio_link(), f + "-d 0 -n 0 -m 0 -w 4 -s 4m -o 1m -i 64k -p -b -V -x 1 -B 4 -I 3 -T 0 -k 3456 "
                                       "-R -F -J -O 0",
                     scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  GdsioLine g;
  ASSERT_TRUE(parse_line(lines[0], g)) << lines[0];
  EXPECT_EQ(g.io_type, "RANDWRITE");
  EXPECT_EQ(g.moved_kib, 4096u);
  EXPECT_EQ(g.asked_kib, 4096u);
  EXPECT_EQ(g.ops, 64u);
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "f"), 5u << 20);  // -o + -s
  // The notes come after gdsio's lines, on stderr, one line each.
  EXPECT_NE(r.err.find("gdsio: -p: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gdsio: -B: "), std::string::npos) << r.err;

  // Sizes drawn in a range: every byte of the data set once, IOSize the mean size moved.
  r = run(gdsio_link(), f + "-w 2 -s 4m -o 1m -i 4k:64k:4k -x 1 -I 1 -V", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  ASSERT_TRUE(parse_line(lines[0], g)) << lines[0];
  EXPECT_EQ(g.moved_kib, 4096u);
  EXPECT_EQ(g.asked_kib, 4096u);
  EXPECT_GT(g.ops, 4096u / 64);
  EXPECT_LT(g.ops, 4096u / 4);
  EXPECT_EQ(g.io_kib, g.moved_kib / g.ops);

  // Independent random offsets, aligned and unaligned: the same -k reads back what it wrote.
  for (const char* how : {"-a 8k", "-U"}) {
    r = run(gdsio_link(), f + "-w 2 -s 4m -o 1m -i 16k -x 2 -I 3 -k 99 -V " + how, scratch);
    ASSERT_EQ(r.code, 0) << how << ": " << r.err;
    lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    ASSERT_TRUE(parse_line(lines[2], g)) << lines[2];
    EXPECT_EQ(g.io_type, "RANDREAD");
    EXPECT_EQ(g.ops, 256u);
  }
  EXPECT_NE(r.err.find("gdsio: -U: the files were opened without O_DIRECT"), std::string::npos) << r.err;
  // Such a write need not cover the data set: it leaves no record, and a later -V read is refused.
  r = run(gdsio_link(), f + "-w 2 -s 4m -o 1m -i 16k -x 1 -I 0 -V", scratch);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("no record of a complete write run"), std::string::npos) << r.err;

  // A mixed run: 70% reads, the line's IoType RW, bytes and ops of both.
  r = run(gdsio_link(), f + "-w 2 -s 4m -o 1m -i 64k -x 1 -I 1 -M 70", scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(parse_line(lines_of(r.out).at(0), g)) << r.out;
  EXPECT_EQ(g.io_type, "RW");
  EXPECT_EQ(g.ops, 64u);
  EXPECT_EQ(g.moved_kib, 4096u);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"f"}));
}

TEST(GdsioCommand, JobFilesRunEveryJobAndPrintTheirLinesInOrder) {
  ScopedStateDir state;
  TempDir dir, scratch;
  const auto job = scratch.path() / "rw-sample.gdsio";
  std::ofstream(job) << "# two jobs writing at once\n[global]\nname=gds-sample\nxfer_type=1\nrw=write\nbs=64K\n"
                        "size=1M\ndo_verify=1\n\n[job0]\nnum_threads=2\ndirectory="
                     << dir.path().string() << "\nnuma_node=0\n\n[job1]\nnum_threads=1\nfilename="
                     << (dir.path() / "one").string() << "\nbs=128KB\nxfer_type=2\n";
  CommandRun r = run(gdsio_link(), job.string(), scratch);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  GdsioLine g;
  ASSERT_TRUE(parse_line(lines[0], g)) << lines[0];
  EXPECT_EQ(g.threads, 2u);
  EXPECT_EQ(g.io_kib, 64u);
  EXPECT_EQ(g.asked_kib, 2048u);
  EXPECT_EQ(lines[1], "Verifying data");
  ASSERT_TRUE(parse_line(lines[3], g)) << lines[3];
  EXPECT_EQ(g.xfer_type, "CPU_GPU");
  EXPECT_EQ(g.threads, 1u);
  EXPECT_EQ(g.io_kib, 128u);
  EXPECT_EQ(g.asked_kib, 1024u);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"gdsio.0", "gdsio.1", "one"}));

  // A bad key or value names the file, the line and the key; nothing runs.
  TempDir empty;
  std::ofstream(job) << "[global]\nrw=write\nsize=1M\n[job0]\ndirectory=" << empty.path().string() << "\nbs=64Q\n";
  r = run(gdsio_link(), job.string(), scratch);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find(job.string() + " [job0]"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("-i 64Q"), std::string::npos) << r.err;
  std::ofstream(job) << "[global]\nrw=write\ndepth=4\n";
  r = run(gdsio_link(), job.string(), scratch);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(job.string() + " line 3: unknown key 'depth'"), std::string::npos) << r.err;
  EXPECT_TRUE(empty.entries().empty());
}

TEST(GdsioCommand, AVerifyReadRefusesWhatAKilledWriteLeft) {
  ScopedStateDir state;
  TempDir dir, scratch;
  const std::string d = "-D " + dir.path().string() + " -w 2 -s 4m -i 64k -x 1 ";
  ASSERT_EQ(run(gdsio_link(), d + "-I 1", scratch).code, 0);
  ASSERT_EQ(run(gdsio_link(), d + "-I 0 -V", scratch).code, 0);
  // A timed write over the same files, killed without a chance to clean up.
  const CommandRun killed = run("timeout -s KILL 1 " + gdsio_link(), d + "-I 1 -T 60", scratch);
  EXPECT_EQ(killed.code, 137) << killed.err;
  EXPECT_TRUE(state.records().empty());
  const CommandRun r = run(gdsio_link(), d + "-I 0 -V", scratch);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("no record of a complete write run"), std::string::npos) << r.err;
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"gdsio.0", "gdsio.1"}));
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

// The native command's names of the bounce types and its --offset: a write at an offset, its
// verified read-back; a read from another offset is refused (the record names what was written).
TEST(IoCommandTransfer, BounceTypesAndAnOffsetThroughTheBinary) {
  ScopedStateDir state;
  TempDir dir, scratch;
  const std::string f = "io -f " + (dir.path() / "one").string() + " -w 2 -s 512K -i 16K --offset 1M ";
  for (const char* xfer : {"cpu-gpu", "cpu-async-gpu", "cpu-cached-gpu"}) {
    CommandRun r = run(xferbench(), f + "--rw write --xfer " + xfer + " --format json --quiet", scratch);
    ASSERT_EQ(r.code, 0) << xfer << ": " << r.err;
    EXPECT_NE(r.out.find(std::string("\"transfer\": \"") + xfer + "\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"offset\": 1048576"), std::string::npos) << r.out;
    r = run(xferbench(), f + "--rw randread --verify --quiet --xfer " + xfer, scratch);
    EXPECT_EQ(r.code, 0) << xfer << ": " << r.err;
  }
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "one"), (1u << 20) + (1u << 20));  // offset + 2 x 512K
  const CommandRun elsewhere =
      run(xferbench(), "io -f " + (dir.path() / "one").string() + " -w 2 -s 512K -i 16K --rw read --verify", scratch);
  EXPECT_EQ(elsewhere.code, 1) << elsewhere.err;
  EXPECT_NE(elsewhere.err.find("wrote bytes [1048576, 2097152), this run reads [0, 1048576)"), std::string::npos)
      << elsewhere.err;
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
      {"-D {dir} -w 2 -s 1m -i 64k -x 8 -I 1", "-x 8"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 4", "-I 4"},
      {"-D {dir} -w 2 -s 1m -i 64k -x one -I 1", "-x one"},
      {"-D {dir} -w 0 -s 1m -i 64k -x 1 -I 1", "-w 0"},
      {"-w 2 -s 1m -i 64k -x 1 -I 1", "-D"},
      {"-D {dir} -f {dir}/f -w 2 -s 1m -i 64k -x 1 -I 1", "-D"},
      {"-D {dir} -w 2 -s 4k -i 64k -x 1 -I 1", "-s 4K"},
      {"-D {dir} -w 2 -i 64k -x 1 -I 1", "-s"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 -M 101", "-M 101"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 -m 5", "-m 5"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 -O 2", "-O 2"},
      {"-D {dir} -w 2 -s 1m -i 4k:8k -x 1 -I 1", "-i 4k:8k"},
      {"-D {dir} -w 2 -s 1m -i 8k:4k:4k -x 1 -I 1", "-i 8K:4K"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 6 -B 0 -I 1", "-B"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 3 -k seed", "-k"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 -n 99", "-n 99"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 -o 100", "-o 100"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 3 -a 100", "-a 100"},
      {"-D {dir} -w 2 -s 1m -i 64k -x 1 -I 1 -M 50 -V", "-M"},
      {"-D {dir} -w 2 -s 1m -i 1000 -x 1 -I 1", "-i 1000"},
      // The way out in gdsio's own flags (the job names the field; gdsio words it -O 1).
      {"-D {dir} -w 2 -s 1m -i 1000 -x 1 -I 1", "(or use -O 1)"},
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
