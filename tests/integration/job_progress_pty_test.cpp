// Progress on a real terminal for the job commands (cli/job_progress.hpp): run under a
// pseudo-terminal, each command shows its own step text on the terminal and erases it ("\r\033[K")
// before its table; with -q it shows none. The same commands with stderr a pipe are covered by the
// other tests: no progress there.
//
// copy and p2p run a fixed amount of work, whose length depends on the machine (a run sized to last
// past the two-second delay here took over a minute under the sanitizers on a loaded CI machine), so
// they run briefly with XFERBENCH_PROGRESS_AFTER_MS=0, which shows the line from the start. io is
// bounded by time (-T 3) and keeps the default delay. The delay itself is tested on a pipe
// (tests/survey/progress_test.cpp) and on a terminal (survey_pty_test.cpp, io past two seconds).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <regex>

#include <string>
#include <vector>

#include "support/pty_run.hpp"
#include "support/temp_dir.hpp"
#include "xfer_processes.hpp"

namespace xb {
namespace {

constexpr const char* kShowAtOnce = "XFERBENCH_PROGRESS_AFTER_MS=0";

struct PtyCase {
  std::string name;
  std::vector<std::string> args;  // a run of a few seconds on the cpu backend
  std::string step;               // the start of its progress text
  std::string table;              // a word of its table's header, printed after the line is erased
  std::vector<std::string> env;   // added to the environment
};

void expect_progress_then_table(const PtyCase& c) {
  SCOPED_TRACE(c.name);
  const test::PtyRun shown = test::run_on_pty(XB_BINARY, c.args, std::chrono::minutes(2), c.env);
  ASSERT_TRUE(WIFEXITED(shown.status) && WEXITSTATUS(shown.status) == 0) << shown.output;
  const auto step = shown.output.find("\r\033[K" + c.step);
  ASSERT_NE(step, std::string::npos) << shown.output;
  const auto table = shown.output.find(c.table, step);
  ASSERT_NE(table, std::string::npos) << shown.output;
  // The last thing before the table is the erase: no step text is left standing in front of it.
  const auto last_erase = shown.output.rfind("\r\033[K", table);
  EXPECT_EQ(shown.output.substr(last_erase + 4, table - last_erase - 4).find(c.step), std::string::npos)
      << shown.output;

  std::vector<std::string> quiet_args = c.args;
  quiet_args.push_back("-q");
  const test::PtyRun quiet = test::run_on_pty(XB_BINARY, quiet_args, std::chrono::minutes(2), c.env);
  ASSERT_TRUE(WIFEXITED(quiet.status) && WEXITSTATUS(quiet.status) == 0) << quiet.output;
  EXPECT_EQ(quiet.output.find(c.step), std::string::npos) << quiet.output;
  EXPECT_NE(quiet.output.find(c.table), std::string::npos) << quiet.output;
}

TEST(JobProgressPty, CopyShowsItsStepAndErasesIt) {
  expect_progress_then_table({"copy",
                              {"copy", "--backend", "cpu", "--from", "host", "--to", "device", "-d", "1", "-s", "1M",
                               "-n", "4", "-i", "8", "--warmup", "1"},
                              "copy: h2d on 1 device(s)",
                              "bandwidth",
                              {kShowAtOnce}});
}

TEST(JobProgressPty, P2pShowsItsStepAndErasesIt) {
  expect_progress_then_table(
      {"p2p", {"p2p", "--backend", "cpu", "-s", "1M", "--times", "8"}, "p2p: 1M x 8…", "bandwidth", {kShowAtOnce}});
}

TEST(JobProgressPty, IoShowsItsStepAndErasesIt) {
  test::TempDir dir;
  const PtyCase io{"io",
                   {"io", "-D", dir.path().string(), "--rw", "write", "-s", "8M", "-i", "64K", "-T", "3", "--buffered"},
                   "io: write",
                   "throughput",
                   {kShowAtOnce}};
  expect_progress_then_table(io);
  // The line shows the live rate (issue 18 item 7): "io: write … 2 s, 3.51 GB/s".
  const test::PtyRun shown = test::run_on_pty(XB_BINARY, io.args, std::chrono::minutes(2), io.env);
  ASSERT_TRUE(WIFEXITED(shown.status) && WEXITSTATUS(shown.status) == 0) << shown.output;
  EXPECT_TRUE(std::regex_search(shown.output, std::regex("io: write[^\r]* [0-9]+ s, [0-9]+\\.[0-9]{2} [KMG]?B/s")))
      << shown.output;
  // Bounded by time (-T 3): the share done is of the seconds (that the time left falls is the
  // unit test survey.Progress.DoneAndLeftIsTheShareAndThePace).
  EXPECT_TRUE(std::regex_search(shown.output, std::regex("io: write[^\r]*B/s, [0-9]{1,2}% done, about [1-3] s left")))
      << shown.output;
}

// The live rate of the jobs bounded by work (issue 18 item 7): each runs about two seconds here
// (longer under the sanitizers or load: the rate only needs one half-second tick while data moves),
// shown from the start. copy's ranks are forked processes, so its bytes reach the line through
// the shared counter (runtime/forked_moved_bytes); p2p adds each window's, link each transfer's.
void expect_live_rate(const std::string& name, const std::vector<std::string>& args, const std::string& step) {
  SCOPED_TRACE(name);
  const test::PtyRun shown = test::run_on_pty(XB_BINARY, args, std::chrono::minutes(3), {kShowAtOnce});
  ASSERT_TRUE(WIFEXITED(shown.status) && WEXITSTATUS(shown.status) == 0) << shown.output;
  EXPECT_TRUE(std::regex_search(shown.output, std::regex(step + "[^\r]* [0-9]+ s, [0-9]+\\.[0-9]{2} [KMG]?B/s")))
      << shown.output;
  // The job said its whole work: the line says how much is done and the time left (fio's eta);
  // at least 1% once the timed work runs (warm-ups alone stay under it).
  EXPECT_TRUE(std::regex_search(
      shown.output, std::regex(step + "[^\r]*B/s, [1-9][0-9]?% done, about [0-9]+ s left")))
      << shown.output;
}

TEST(JobProgressPty, CopyShowsTheLiveRateOfItsForkedRanks) {
  expect_live_rate("copy",
                   {"copy", "--backend", "cpu", "--from", "host", "--to", "device", "-d", "2", "-s", "4M", "-n", "16",
                    "-i", "250", "--warmup", "1"},
                   "copy: h2d on 2 device\\(s\\)");
}

TEST(JobProgressPty, P2pShowsTheLiveRate) {
  expect_live_rate("p2p", {"p2p", "--backend", "cpu", "-s", "64M", "--times", "300"}, "p2p: 64M x 300");
}

TEST(JobProgressPty, LinkShowsTheLiveRate) {
  expect_live_rate("link", {"link", "--transport", "tcp", "-s", "4M:4M", "-i", "2000"}, "link: 4M to 4M over tcp");
}

// xfer's client, against a real server process (each pass's bytes as it ends).
TEST(JobProgressPty, XferClientShowsTheLiveRate) {
  test::TempDir dir;
  auto server = test::start_xfer_server({}, "127.0.0.1", dir.path(), {"--transport", "tcp", "--wait", "60", "-q"});
  expect_live_rate("xfer",
                   {"xfer", "client", "--peer", server.control, "--transport", "tcp", "--block", "4M", "--total", "1G",
                    "--iters", "6", "--no-latency", "--wait", "20"},
                   "xfer: write h2h over tcp");
  const auto served = server.process.wait_for(std::chrono::seconds(60));
  ASSERT_TRUE(served.has_value()) << "the server did not end after its client was done";
  EXPECT_TRUE(served->exited && served->exit_code == 0) << served->describe();
}

}  // namespace
}  // namespace xb
