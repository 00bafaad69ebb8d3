// `xferbench io` when things go wrong, through the real binary: a file system that fills up
// (ENOSPC on a small tmpfs the test mounts), a run killed in the middle (SIGKILL: no half-written
// set passes a later --verify; SIGTERM: the files the run created are removed), an unwritable or
// missing directory. Real mounts (root), real files, real signals; timings are never asserted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/state_dir.hpp"
#include "support/temp_dir.hpp"
#include "test_mount.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::ScopedStateDir;
using test::TempDir;
using test::TmpfsMount;
namespace fs = std::filesystem;

using test::slurp;

std::vector<std::string> split(const std::string& args) {
  std::vector<std::string> words;
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// `xferbench io ARGS` as a child process, stdout and stderr in files of `scratch`.
class IoProcess {
 public:
  IoProcess(const std::string& args, const TempDir& scratch)
      : out_(scratch.path() / "stdout"), err_(scratch.path() / "stderr") {
    std::vector<std::string> words = split(args);
    words.insert(words.begin(), {XB_BINARY, "io"});
    pid_ = fork();
    if (pid_ == 0) {
      const int o = open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      const int e = open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(127);
      std::vector<char*> argv;
      for (auto& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~IoProcess() {
    if (pid_ > 0 && status_ < 0) {
      kill(pid_, SIGKILL);
      wait();
    }
  }
  IoProcess(const IoProcess&) = delete;
  IoProcess& operator=(const IoProcess&) = delete;

  bool started() const { return pid_ > 0; }
  void signal(int sig) const { kill(pid_, sig); }
  int wait() {
    if (status_ < 0) {
      int st = 0;
      while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
      }
      status_ = st;
    }
    return status_;
  }
  // The exit code, or -signal when a signal ended it.
  int code() {
    const int st = wait();
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? -WTERMSIG(st) : -1000;
  }
  std::string out() const { return slurp(out_); }
  std::string err() const { return slurp(err_); }

 private:
  fs::path out_, err_;
  pid_t pid_ = -1;
  int status_ = -1;
};

struct Finished {
  int code;
  std::string out, err;
};

Finished run_io_command(const std::string& args, const TempDir& scratch) {
  IoProcess p(args, scratch);
  const int code = p.code();
  return {code, p.out(), p.err()};
}

// A new sparse file of `bytes` (no block allocated), as truncate(1) makes; 0 on success.
int truncate_new(const fs::path& file, off_t bytes) {
  const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return -1;
  const int rc = ftruncate(fd, bytes);
  close(fd);
  return rc;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Polls until `ready` holds; false if it never does within a generous bound (a hung child, not a
// slow machine: the bound is far above any expected time, and no timing is asserted otherwise).
bool eventually(const std::function<bool()>& ready) {
  for (int i = 0; i < 6000; ++i) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(IoRobustness, NoSpaceFailsNamingTheFileWithWhatWasDoneAndLeavesNothing) {
  TempDir scratch;
  for (const char* engine : {"psync", "libaio", "io_uring"}) {
    TmpfsMount small("size=8m,mode=0700");
    if (!small.available()) GTEST_SKIP() << small.why();
    const std::string d = "-D " + small.path().string();
    // 2 x 8 MiB into an 8 MiB file system. The up-front check (below) would refuse it, so the first
    // file is already there at its full size but sparse (made with truncate, as a user's
    // preallocation might be): the check counts it as written, and the space runs out while writing.
    ASSERT_EQ(truncate_new(small.path() / "xferbench-io.0", 8 << 20), 0);
    const Finished r =
        run_io_command(d + " -w 2 --rw write -s 8M -i 64K --qd 4 --engine " + std::string(engine), scratch);
    EXPECT_EQ(r.code, 1) << engine << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << engine << ": " << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << engine << ": " << r.err;
    EXPECT_NE(r.err.find(small.path().string() + "/xferbench-io."), std::string::npos) << engine << ": " << r.err;
    // The partial results: what was moved before the error, and of how much.
    const auto at = r.err.find("done before the error: ");
    ASSERT_NE(at, std::string::npos) << engine << ": " << r.err;
    const std::uint64_t done = std::stoull(r.err.substr(at + 23));
    EXPECT_GT(done, 0u) << engine << ": " << r.err;
    EXPECT_LE(done, 8u << 20) << engine << ": " << r.err;
    EXPECT_NE(r.err.find("bytes of 16777216 in "), std::string::npos) << engine << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << engine;
    // Nothing of the run's left behind: the file it made is gone, the user's sparse one stays.
    EXPECT_EQ(entries(small.path()), (std::vector<std::string>{"xferbench-io.0"})) << engine;
  }
}

// A write the free space cannot hold is refused before its first byte: exit 3 (a limit of this
// machine, not bad input), one line with both sizes, no file made.
TEST(IoRobustness, AWriteBeyondTheFreeSpaceIsRefusedUpFront) {
  TempDir scratch;
  TmpfsMount small("size=8m,mode=0700");
  if (!small.available()) GTEST_SKIP() << small.why();
  const Finished r = run_io_command("-D " + small.path().string() + " -w 2 --rw write -s 8M -i 64K", scratch);
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("not available on this machine: -s 8M x -w 2: the files need 16.0 MiB more on " + small.path().string() +
                       ", which has 8.0 MiB free; lower -s"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(entries(small.path()).empty());
}

TEST(IoRobustness, KeepLeavesTheFilesOfAFailedRunAndVerifyRefusesThem) {
  TempDir scratch;
  TmpfsMount small("size=8m,mode=0700");
  if (!small.available()) GTEST_SKIP() << small.why();
  const std::string d = "-D " + small.path().string();
  // One thread, twice the file system: the file holds about 8 MiB when the space runs out. (With
  // two threads one of them could find the space gone before its first byte, and a read of its
  // empty file is refused for its size before the record is looked at.)
  // The file exists, sparse, at half its size: the up-front check sees 8 MiB to add and lets it go.
  ASSERT_EQ(truncate_new(small.path() / "xferbench-io.0", 8 << 20), 0);
  const Finished w = run_io_command(d + " -w 1 --rw write -s 16M -i 64K --engine io_uring --qd 4 --keep", scratch);
  EXPECT_EQ(w.code, 1) << w.err;
  EXPECT_NE(w.err.find("No space left on device"), std::string::npos) << w.err;
  EXPECT_EQ(entries(small.path()), (std::vector<std::string>{"xferbench-io.0"}));
  // What the failed run wrote may well hold the right pattern, but nothing vouches for it.
  const Finished r = run_io_command(d + " -w 1 --rw read -s 64K -i 64K --verify", scratch);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("no record of a complete write run"), std::string::npos) << r.err;
}

TEST(IoRobustness, WriteRunKilledMidwayLeavesNothingAVerifyAccepts) {
  ScopedStateDir state;
  TempDir dir, scratch;
  const std::string d = "-D " + dir.path().string();
  const std::string write = d + " -w 2 --rw write -s 4M -i 64K --engine io_uring --qd 4";
  const std::string verify = d + " -w 2 --rw read -s 4M -i 64K --engine libaio --qd 4 --verify";
  ASSERT_EQ(run_io_command(write, scratch).code, 0);
  const Finished first = run_io_command(verify, scratch);
  ASSERT_EQ(first.code, 0) << first.err;  // a complete write verifies

  {
    IoProcess killed(write + " -T 600", scratch);  // loops over the files until killed
    ASSERT_TRUE(killed.started());
    // The records go before the first byte: once they are gone, the run is writing.
    ASSERT_EQ(state.records().size(), 2u);
    EXPECT_TRUE(eventually([&] { return state.records().empty(); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    killed.signal(SIGKILL);
    EXPECT_EQ(killed.code(), -SIGKILL);
  }
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"xferbench-io.0", "xferbench-io.1"}));
  const Finished after = run_io_command(verify, scratch);
  EXPECT_EQ(after.code, 1) << after.err;
  EXPECT_EQ(lines(after.err), 1) << after.err;
  EXPECT_NE(after.err.find("a read with verification: refused: "), std::string::npos) << after.err;
  EXPECT_NE(after.err.find(": no record of a complete write run"), std::string::npos) << after.err;

  // A complete write run makes the set verifiable again.
  ASSERT_EQ(run_io_command(write, scratch).code, 0);
  EXPECT_EQ(run_io_command(verify, scratch).code, 0);
}

TEST(IoRobustness, SigtermRemovesTheFilesTheRunCreatedAndOnlyThose) {
  ScopedStateDir state;
  TempDir dir, scratch;
  const std::string write = "-D " + dir.path().string() + " -w 2 --rw write -s 4M -i 64K --engine libaio --qd 4 -T 600";
  {
    IoProcess p(write, scratch);
    ASSERT_TRUE(p.started());
    EXPECT_TRUE(eventually([&] { return fs::exists(dir.path() / "xferbench-io.1"); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    p.signal(SIGTERM);
    EXPECT_EQ(p.code(), -SIGTERM);
  }
  EXPECT_TRUE(entries(dir.path()).empty());

  // Files that were there before the run are not the run's to remove; they lose their record.
  ASSERT_EQ(run_io_command("-D " + dir.path().string() + " -w 2 --rw write -s 1M -i 64K", scratch).code, 0);
  {
    IoProcess p(write, scratch);
    ASSERT_TRUE(p.started());
    EXPECT_TRUE(eventually([&] { return state.records().empty(); }));
    p.signal(SIGINT);
    EXPECT_EQ(p.code(), -SIGINT);
  }
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"xferbench-io.0", "xferbench-io.1"}));
}

TEST(IoRobustness, UnwritableOrMissingDirectoryIsBadInputAndCreatesNothing) {
  TempDir scratch;
  TmpfsMount read_only("size=1m,mode=0755", true);  // root ignores mode bits, not a read-only mount
  if (!read_only.available()) GTEST_SKIP() << read_only.why();
  const std::string ro = read_only.path().string();
  struct Case {
    std::string args, flag, rule;
  };
  const Case cases[] = {
      {"-D " + ro + " --rw write -s 1M -i 64K", "-D " + ro, "not writable"},
      {"-f " + ro + "/one --rw write -s 1M -i 64K", "-f " + ro + "/one", "not writable"},
      {"-D " + ro + "/missing --rw read -s 1M -i 64K", "-D " + ro + "/missing", "does not exist"},
      {"-D " + ro + "/missing --rw write -s 1M -i 64K", "-D " + ro + "/missing", "does not exist"},
  };
  for (const auto& c : cases) {
    const Finished r = run_io_command(c.args, scratch);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.flag), std::string::npos) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.rule), std::string::npos) << c.args << ": " << r.err;
  }
  EXPECT_TRUE(entries(read_only.path()).empty());
}

TEST(IoRobustness, FileWhereADirectoryIsExpectedIsBadInput) {
  TempDir dir, scratch;
  const fs::path plain = dir.path() / "plain";
  std::ofstream(plain) << "x";
  for (const char* rw : {"read", "write"}) {
    const Finished r = run_io_command("-D " + plain.string() + " --rw " + rw + " -s 1M -i 64K", scratch);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("-D " + plain.string() + ": not a directory"), std::string::npos) << r.err;
    EXPECT_EQ(fs::file_size(plain), 1u);
  }
}

}  // namespace
}  // namespace xb
