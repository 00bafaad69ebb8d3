// A run that ends early keeps what it measured (cli/partial_results, core/interrupt_watch; issue 18
// item 8). The interrupt cases run in a forked child that really receives the signal and really dies
// of it; the parent reads what the child delivered.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <chrono>
#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/partial_results.hpp"
#include "core/atomic_file.hpp"
#include "core/cleanup.hpp"
#include "core/error.hpp"
#include "core/interrupt_watch.hpp"
#include "core/stop.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;
using xb::test::TempDir;

CaseResult named_case(const std::string& name) {
  CaseResult c;
  c.job = "copy";
  c.name = name;
  c.metrics.push_back({"bandwidth", 1.5, "GiB/s", ""});
  return c;
}

ResultDocument blank_document() {
  ResultDocument doc;
  doc.program_version = "test";
  doc.started_at = "2026-12-04T00:00:00Z";
  return doc;
}

// What a delivery writes: the document as JSON, to `path`, as the commands write it (through a
// temporary registered for cleanup: the delivering thread makes a name after the end began).
PartialRun::Deliver write_to(const fs::path& path) {
  return [path](const ResultDocument& doc) { write_file_atomically(path.string(), to_json(doc).dump()); };
}

// Forks; the child runs `body` (which must not return: the signal ends it). The child's wait status;
// a child still alive after 60 s (a hung watcher, a parked thread) is killed: SIGKILL, a failure.
int status_of_child(const std::function<void()>& body) {
  const pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(99);
  }
  int status = 0;
  for (int waited_ms = 0; waitpid(pid, &status, WNOHANG) == 0; waited_ms += 10) {
    if (waited_ms >= 60'000) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(10'000);
  }
  return status;
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exit " + std::to_string(WEXITSTATUS(status));
}

TEST(PartialRun, InterruptStopsTheJobThenDeliversTheCasesCompleteMarkedPartialThenDiesOfTheSignal) {
  TempDir dir;
  const fs::path file = dir.path() / "r.json";
  const fs::path unwound = dir.path() / "unwound";
  const int status = status_of_child([&] {
    PartialRun partial(blank_document(), write_to(file), std::cout, std::cerr);
    const CaseSink keep = partial.keeper();
    const std::stop_token stop = partial.stop_token();
    partial.run([&]() -> std::vector<CaseResult> {
      // What a job holds (an NPU's buffers) is released as it unwinds, before the delivery.
      struct Held {
        fs::path marker;
        ~Held() { std::ofstream(marker) << "released"; }
      } held{unwound};
      keep(named_case("first"));
      keep(named_case("second"));
      kill(getpid(), SIGINT);  // process-directed, as Ctrl-C's is
      for (;;) {               // the job goes on until its next check
        stop_here_if_asked(stop);
        usleep(1000);
      }
    });
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << describe(status);
  EXPECT_TRUE(fs::exists(unwound)) << "the job did not unwind before the process ended";
  std::ifstream in(file);
  ASSERT_TRUE(in) << "nothing delivered";
  const ResultDocument doc = result_from_json(nlohmann::json::parse(in));
  EXPECT_EQ(doc.partial, "interrupted by SIGINT");
  ASSERT_EQ(doc.cases.size(), 2u);
  EXPECT_EQ(doc.cases[0].name, "first");
  EXPECT_EQ(doc.cases[1].name, "second");
}

TEST(PartialRun, InterruptWithNothingCompleteDeliversNothing) {
  TempDir dir;
  const fs::path file = dir.path() / "r.json";
  const int status = status_of_child([&] {
    // A job that never checks: delivered (here nothing) once the grace period is over.
    PartialRun partial(blank_document(), write_to(file), std::cout, std::cerr, false, std::chrono::milliseconds(100));
    partial.run([&]() -> std::vector<CaseResult> {
      kill(getpid(), SIGTERM);
      for (;;) pause();
    });
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << describe(status);
  EXPECT_FALSE(fs::exists(file));
}

// The run finished (its own delivery is under way): a signal then ends it as before, and no
// partial document is made beside the full one.
TEST(PartialRun, InterruptAfterTheRunFinishedDeliversNothing) {
  TempDir dir;
  const fs::path file = dir.path() / "r.json";
  const int status = status_of_child([&] {
    PartialRun partial(blank_document(), write_to(file), std::cout, std::cerr);
    const CaseSink keep = partial.keeper();
    partial.run([&] {
      keep(named_case("only"));
      return std::vector<CaseResult>{named_case("only")};
    });
    kill(getpid(), SIGHUP);
    for (;;) pause();
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGHUP) << describe(status);
  EXPECT_FALSE(fs::exists(file));
}

// A second Ctrl-C while the first one's delivery hangs (a full pipe) ends the process at once, and
// the names the delivery registered meanwhile (the results file's temporary) are removed.
TEST(PartialRun, ASecondSignalDuringTheDeliveryEndsItAndRemovesWhatItMade) {
  TempDir dir;
  const fs::path temporary = dir.path() / "r.json.tmp";
  const int status = status_of_child([&] {
    install_cleanup_signal_handlers();
    const auto stuck = [&](const ResultDocument&) {
      const ScopedCleanup registered(CleanupKind::file, temporary.string());
      creating_names([&] { return close(open(temporary.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600)); });
      kill(getpid(), SIGINT);
      for (;;) pause();
    };
    PartialRun partial(blank_document(), stuck, std::cout, std::cerr, false, std::chrono::milliseconds(100));
    const CaseSink keep = partial.keeper();
    partial.run([&]() -> std::vector<CaseResult> {
      keep(named_case("first"));
      kill(getpid(), SIGINT);
      for (;;) pause();
    });
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << describe(status);
  EXPECT_FALSE(fs::exists(temporary)) << "the delivery's temporary outlived the second signal";
}

// Ctrl-C reaches the device processes too: one dies of it and the job fails at once, racing the
// watcher. The failure the signal caused is the interrupt's to report: interrupted, not failed.
TEST(PartialRun, AFailureTheSignalCausedIsDeliveredAsTheInterrupt) {
  TempDir dir;
  const fs::path file = dir.path() / "r.json";
  const int status = status_of_child([&] {
    PartialRun partial(blank_document(), write_to(file), std::cout, std::cerr);
    const CaseSink keep = partial.keeper();
    try {
      partial.run([&]() -> std::vector<CaseResult> {
        keep(named_case("first"));
        kill(getpid(), SIGINT);  // pending at once (blocked here): the watcher has not woken yet
        throw std::runtime_error("device process 0 was killed by signal 2 (Interrupt)");
      });
    } catch (...) {
    }
    _exit(98);  // the failure path went on: the watcher should have had the run
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << describe(status);
  std::ifstream in(file);
  ASSERT_TRUE(in) << "nothing delivered";
  EXPECT_EQ(result_from_json(nlohmann::json::parse(in)).partial, "interrupted by SIGINT");
}

// Bad input found midway (exit 2) leaves nothing behind: no partial result.
TEST(PartialRun, BadInputMidwayDeliversNothing) {
  int delivered = 0;
  std::ostringstream out, err;
  PartialRun partial(blank_document(), [&](const ResultDocument&) { ++delivered; }, out, err);
  const CaseSink keep = partial.keeper();
  EXPECT_THROW(partial.run([&]() -> std::vector<CaseResult> {
                 keep(named_case("4K"));
                 throw UsageError("-s 1T: more than this machine's memory");
               }),
               UsageError);
  EXPECT_EQ(delivered, 0);
}

// A delivery that fails itself (a full disk) says so in one line; the job's own error goes on.
TEST(PartialRun, ADeliveryThatFailsKeepsTheJobsError) {
  std::ostringstream out, err;
  PartialRun partial(blank_document(), [](const ResultDocument&) { throw std::runtime_error("disk full"); }, out, err);
  const CaseSink keep = partial.keeper();
  try {
    partial.run([&]() -> std::vector<CaseResult> {
      keep(named_case("4K"));
      throw std::runtime_error("peer closed");
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "peer closed");
  }
  EXPECT_NE(err.str().find("the partial result could not be delivered: disk full"), std::string::npos) << err.str();
}

// -q: no note on stderr, the result still delivered.
TEST(PartialRun, QuietSaysNothing) {
  int delivered = 0;
  std::ostringstream out, err;
  PartialRun partial(blank_document(), [&](const ResultDocument&) { ++delivered; }, out, err, true);
  const CaseSink keep = partial.keeper();
  EXPECT_THROW(partial.run([&]() -> std::vector<CaseResult> {
                 keep(named_case("4K"));
                 throw std::runtime_error("peer closed");
               }),
               std::runtime_error);
  EXPECT_EQ(delivered, 1);
  EXPECT_TRUE(err.str().empty()) << err.str();
}

TEST(PartialRun, AFailedRunDeliversTheCasesCompleteWithItsReasonAndRethrows) {
  std::vector<ResultDocument> delivered;
  std::ostringstream out, err;
  PartialRun partial(blank_document(), [&](const ResultDocument& d) { delivered.push_back(d); }, out, err);
  const CaseSink keep = partial.keeper();
  EXPECT_THROW(partial.run([&]() -> std::vector<CaseResult> {
                 keep(named_case("4K"));
                 throw std::runtime_error("peer 10.0.0.2:4791 closed the connection");
               }),
               std::runtime_error);
  ASSERT_EQ(delivered.size(), 1u);
  EXPECT_EQ(delivered[0].partial, "failed: peer 10.0.0.2:4791 closed the connection");
  ASSERT_EQ(delivered[0].cases.size(), 1u);
  EXPECT_EQ(delivered[0].cases[0].name, "4K");
  EXPECT_EQ(delivered[0].program_version, "test");
  EXPECT_NE(err.str().find("the run failed: delivering the 1 case complete, marked partial"), std::string::npos)
      << err.str();
}

TEST(PartialRun, AFailureBeforeAnyCaseDeliversNothing) {
  int delivered = 0;
  std::ostringstream out, err;
  PartialRun partial(blank_document(), [&](const ResultDocument&) { ++delivered; }, out, err);
  EXPECT_THROW(partial.run([]() -> std::vector<CaseResult> { throw std::runtime_error("no peer"); }),
               std::runtime_error);
  EXPECT_EQ(delivered, 0);
  EXPECT_TRUE(err.str().empty()) << err.str();
}

TEST(PartialRun, AFinishedRunIsTheCallersToDeliverAndKeepsPassingCasesOn) {
  int delivered = 0;
  std::vector<std::string> passed;
  std::ostringstream out, err;
  PartialRun partial(blank_document(), [&](const ResultDocument&) { ++delivered; }, out, err);
  const CaseSink keep = partial.keeper([&](const CaseResult& c) { passed.push_back(c.name); });
  const std::vector<CaseResult> cases = partial.run([&] {
    keep(named_case("a"));
    keep(named_case("b"));
    return std::vector<CaseResult>{named_case("a"), named_case("b")};
  });
  EXPECT_EQ(cases.size(), 2u);
  EXPECT_EQ(passed, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(delivered, 0);
}

bool end_signals_blocked_here() {
  sigset_t now;
  pthread_sigmask(SIG_BLOCK, nullptr, &now);
  return sigismember(&now, SIGINT) == 1 && sigismember(&now, SIGTERM) == 1 && sigismember(&now, SIGHUP) == 1;
}

// While a watch lives the end signals are blocked here (the watcher takes them), a child forked
// meanwhile has them back (it has no watcher), and the mask is restored afterwards.
TEST(InterruptWatch, BlocksTheSignalsWhileItLivesButNotInForkedChildren) {
  install_cleanup_signal_handlers();  // the fork hook that unblocks them in a child
  ASSERT_FALSE(end_signals_blocked_here());
  {
    const InterruptWatch watch([](int) {});
    EXPECT_TRUE(end_signals_blocked_here());
    const int status = status_of_child([] { _exit(end_signals_blocked_here() ? 1 : 0); });
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a forked child kept the signals blocked: "
                                                               << describe(status);
  }
  EXPECT_FALSE(end_signals_blocked_here());
}

// signalled() holds from the moment the signal is sent, whether the watcher has taken it yet or
// not: what lets a failure the signal caused leave the delivery to the watcher.
TEST(InterruptWatch, SignalledHoldsFromTheMomentTheSignalIsSent) {
  const int status = status_of_child([] {
    const InterruptWatch watch([](int) {
      for (;;) pause();  // the watcher holds on: the process ends by the _exit below
    });
    if (watch.signalled()) _exit(3);
    kill(getpid(), SIGTERM);
    const bool at_once = watch.signalled();
    for (int i = 0; i < 1000 && at_once; ++i) {
      if (!watch.signalled()) _exit(4);  // taken by the watcher: must still hold
      usleep(100);
    }
    _exit(at_once ? 0 : 5);
  });
  ASSERT_TRUE(WIFEXITED(status)) << describe(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: signalled before any signal; 4: not after the watcher took it; 5: not at once";
}

}  // namespace
}  // namespace xb
