// `xferbench io` through the real binary: a write and verified read round trip, a corrupted byte
// (exit 1, located), and bad input: exit code 2, one stderr line naming the flag, nothing created.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::TempDir;

struct CommandRun {
  int code = -1;
  std::string out, err;
};

using test::slurp;

// Runs `xferbench io ARGS` with stdout and stderr captured in files of `scratch` (a directory that
// is not the one under test, so "nothing created" can be checked there).
CommandRun run_io_command(const std::string& args, const TempDir& scratch) {
  const auto out = scratch.path() / "stdout", err = scratch.path() / "stderr";
  const std::string cmd = std::string(XB_BINARY) + " io " + args + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  CommandRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(IoCommand, WriteThenVerifiedReadThroughTheBinary) {
  TempDir dir, scratch;
  const std::string d = "-D " + dir.path().string();
  CommandRun w = run_io_command(d + " -w 2 --rw write -s 512K -i 4K --engine io_uring --qd 8 --format json", scratch);
  ASSERT_EQ(w.code, 0) << w.err;
  EXPECT_NE(w.out.find("\"job\": \"io\""), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("latency_p99.9"), std::string::npos);
  CommandRun r = run_io_command(d + " -w 2 --rw randread -s 512K -i 4K --engine libaio --qd 8 --verify --quiet", scratch);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("randread"), std::string::npos) << r.out;

  // One byte flipped: the verified read fails (exit 1) naming the file and the byte's offset.
  const auto victim = dir.path() / "xferbench-io.0";
  const int fd = open(victim.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  const char bad = 0;
  const char good = 1;
  char now = 0;
  ASSERT_EQ(pread(fd, &now, 1, 77777), 1);
  ASSERT_EQ(pwrite(fd, now == bad ? &good : &bad, 1, 77777), 1);
  close(fd);
  CommandRun v = run_io_command(d + " -w 2 --rw read -s 512K -i 4K --engine psync --verify", scratch);
  EXPECT_EQ(v.code, 1);
  EXPECT_EQ(lines(v.err), 1) << v.err;
  EXPECT_NE(v.err.find(victim.string() + " byte at offset 77777 "), std::string::npos) << v.err;
}

TEST(IoCommand, ShortFileFailsWithExitOne) {
  TempDir dir, scratch;
  const std::string d = "-D " + dir.path().string();
  ASSERT_EQ(run_io_command(d + " --rw write -s 64K -i 4K", scratch).code, 0);
  CommandRun r = run_io_command(d + " --rw read -s 128K -i 4K", scratch);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("is 65536 bytes, shorter than the 131072 bytes"), std::string::npos) << r.err;
}

struct BadInput {
  const char* args;      // after -D DIR (or with {dir} / {file} placeholders)
  const char* flag;      // the flag the message must name
};

std::string expand(std::string s, const TempDir& dir) {
  const auto put = [&](const std::string& key, const std::string& value) {
    for (auto at = s.find(key); at != std::string::npos; at = s.find(key)) s.replace(at, key.size(), value);
  };
  put("{file}", (dir.path() / "plain-file").string());
  put("{dir}", dir.path().string());
  return s;
}

TEST(IoCommand, BadInputIsOneLineNamingTheFlagAndCreatesNothing) {
  const BadInput cases[] = {
      {"-D {dir} --rw write --engine spdk", "--engine spdk"},
      {"-D {dir} --rw write -w 0", "-w 0"},
      {"-D {dir} --rw write -s 4K -i 8K", "-s 4K"},
      {"-D {dir} --rw write -s 1M -i 1000", "-i 1000"},
      {"-D {dir} --rw write -s 1M -i 4K --qd 0", "--qd 0"},
      {"-D {dir} --rw scribble", "--rw scribble"},
      {"-D {dir}/missing --rw write -s 1M -i 4K", "-D"},
      {"-D {file} --rw write -s 1M -i 4K", "-D"},
      {"-f {dir} --rw write -s 1M -i 4K", "-f"},
      {"-f {dir}/missing/f --rw write -s 1M -i 4K", "-f"},
      {"--rw write -s 1M -i 4K", "-D"},
      {"-D {dir} -f {dir}/x --rw write -s 1M -i 4K", "-D"},
      {"-D {dir} --rw write -s 1M -i 4K --verify", "--verify"},
      {"-D {dir} --rw write -s 1M -i 4K -T 0", "-T"},
  };
  TempDir scratch;
  for (const auto& c : cases) {
    TempDir dir;
    { std::ofstream(dir.path() / "plain-file") << "x"; }
    const CommandRun r = run_io_command(expand(c.args, dir), scratch);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(expand(c.flag, dir)), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"plain-file"}) << c.args;  // nothing created
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
}

}  // namespace
}  // namespace xb
