// The interrupted-run cleanup (src/core/cleanup.hpp): names are registered while alive, and a real
// SIGTERM/SIGINT removes this process's names (never another process's) and still kills it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/cleanup.hpp"
#include "core/stop.hpp"
#include "memory/host_buffer.hpp"

#include "support/temp_dir.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

using xb::test::TempDir;

void create_file(const fs::path& path) {
  const int fd = open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd >= 0) close(fd);
}

// The child side: report `text` then a newline on `fd`.
void send_line(int fd, const std::string& text) {
  const std::string line = text + "\n";
  if (write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(90);
}

std::vector<std::string> read_lines(int fd) {
  std::string all;
  char buf[512];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    all.append(buf, static_cast<std::size_t>(n));
  }
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = all.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(all.substr(start, nl - start));
  }
  return lines;
}

// In the child: the path of the one xferbench shm segment this process created.
std::string my_shm_segment() {
  const std::string prefix = "xferbench-" + std::to_string(getpid()) + "-";
  for (const auto& e : fs::directory_iterator("/dev/shm")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return e.path().string();
  }
  return {};
}

// Reaps the forked child and checks it died of SIGTERM (the handler re-raised it).
void expect_died_of_sigterm(pid_t child) {
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status)) : "");
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(ScopedCleanup, RegistersWhileAliveOnly) {
  const int before = cleanup_entries_for_this_process();
  {
    ScopedCleanup a(CleanupKind::file, "/var/tmp/xferbench-cleanup-test-a");
    EXPECT_EQ(cleanup_entries_for_this_process(), before + 1);
    {
      ScopedCleanup b(CleanupKind::shm, "/xferbench-cleanup-test-b");
      EXPECT_EQ(cleanup_entries_for_this_process(), before + 2);
    }
    EXPECT_EQ(cleanup_entries_for_this_process(), before + 1);
  }
  EXPECT_EQ(cleanup_entries_for_this_process(), before);
}

TEST(ScopedCleanup, FreedSlotsAreReused) {
  const int before = cleanup_entries_for_this_process();
  for (int i = 0; i < 1000; ++i) {
    ScopedCleanup c(CleanupKind::file, "/var/tmp/xferbench-cleanup-reuse");
  }
  EXPECT_EQ(cleanup_entries_for_this_process(), before);
}

TEST(ScopedCleanup, TableLimitAndLongNamesThrow) {
  const int before = cleanup_entries_for_this_process();
  std::vector<std::unique_ptr<ScopedCleanup>> held;
  bool full = false;
  for (int i = 0; i < 1000 && !full; ++i) {
    try {
      held.push_back(std::make_unique<ScopedCleanup>(CleanupKind::file, "/var/tmp/xferbench-" + std::to_string(i)));
    } catch (const std::runtime_error& e) {
      full = true;
      EXPECT_NE(std::string(e.what()).find("256"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(full);
  EXPECT_EQ(before + static_cast<int>(held.size()), 256);
  held.clear();
  EXPECT_EQ(cleanup_entries_for_this_process(), before);
  EXPECT_THROW(ScopedCleanup(CleanupKind::file, std::string(600, 'x')), std::runtime_error);
  EXPECT_EQ(cleanup_entries_for_this_process(), before);
}

TEST(ScopedCleanup, ForkedChildDoesNotCountItsParentsNames) {
  ScopedCleanup mine(CleanupKind::file, "/var/tmp/xferbench-parent-name");
  ASSERT_GE(cleanup_entries_for_this_process(), 1);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(cleanup_entries_for_this_process() == 0 ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child saw its parent's names as its own";
}

// The child creates a real shm segment (registered by the buffer itself) and a real file registered
// with ScopedCleanup, reports both names on the pipe, then is ended by `sig`; `self_raise` says
// whether the child raises it or the parent sends it.
struct SignalOutcome {
  int status = 0;
  std::vector<std::string> names;
};

SignalOutcome run_child_and_signal(const fs::path& dir, int sig, bool self_raise) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  EXPECT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    install_cleanup_signal_handlers();
    auto shm = make_host_buffer(HostMemoryKind::shm, 1 << 16);
    const std::string segment = my_shm_segment();
    const std::string file = (dir / ("child-" + std::to_string(getpid()))).string();
    create_file(file);
    ScopedCleanup file_cleanup(CleanupKind::file, file);
    if (segment.empty() || !fs::exists(file) || cleanup_entries_for_this_process() != 2) _exit(91);
    send_line(fds[1], segment);
    send_line(fds[1], file);
    close(fds[1]);
    if (self_raise) raise(sig);
    else for (;;) pause();
    _exit(92);  // not reached: the handler re-raises with the default action
  }
  close(fds[1]);
  SignalOutcome out;
  if (self_raise) {
    out.names = read_lines(fds[0]);
  } else {
    out.names = read_lines(fds[0]);  // returns at EOF: the child closed its end and is waiting
    kill(child, sig);
  }
  close(fds[0]);
  waitpid(child, &out.status, 0);
  return out;
}

void expect_died_of_and_cleaned(const SignalOutcome& out, int sig) {
  ASSERT_TRUE(WIFSIGNALED(out.status)) << "child did not die of a signal; status " << out.status
                                       << (WIFEXITED(out.status) ? " exit code " + std::to_string(WEXITSTATUS(out.status)) : "");
  EXPECT_EQ(WTERMSIG(out.status), sig);
  ASSERT_EQ(out.names.size(), 2u);
  EXPECT_EQ(out.names[0].rfind("/dev/shm/xferbench-", 0), 0u) << out.names[0];
  for (const auto& name : out.names) EXPECT_FALSE(fs::exists(name)) << name << " was left behind";
}

TEST(CleanupSignal, RaisedSigtermRemovesShmAndFile) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const auto out = run_child_and_signal(dir.path(), SIGTERM, true);
  expect_died_of_and_cleaned(out, SIGTERM);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(CleanupSignal, SigintFromTheParentRemovesShmAndFile) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const auto out = run_child_and_signal(dir.path(), SIGINT, false);
  expect_died_of_and_cleaned(out, SIGINT);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// A registered directory goes after the registered files in it; one still holding a file nobody
// registered stays (rmdir removes only what is empty).
TEST(CleanupSignal, DirectoriesAreRemovedAfterTheirFilesAndOnlyWhenEmpty) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const fs::path emptied = dir.path() / "scratch";
  const fs::path kept = dir.path() / "kept";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_cleanup_signal_handlers();
    if (!fs::create_directory(emptied) || !fs::create_directory(kept)) _exit(93);
    ScopedCleanup d1(CleanupKind::directory, emptied.string());  // registered before its file
    ScopedCleanup d2(CleanupKind::directory, kept.string());
    create_file(emptied / "data");
    ScopedCleanup f(CleanupKind::file, (emptied / "data").string());
    create_file(kept / "not-registered");
    if (cleanup_entries_for_this_process() != 3) _exit(94);
    raise(SIGTERM);
    _exit(92);
  }
  ASSERT_NO_FATAL_FAILURE(expect_died_of_sigterm(child));
  EXPECT_FALSE(fs::exists(emptied)) << "the emptied directory was left";
  EXPECT_TRUE(fs::exists(kept / "not-registered")) << "an unregistered file was removed";
}

TEST(CleanupSignal, ChildSignalLeavesTheParentsNamesAlone) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const fs::path parents = dir.path() / "parent-file";
  create_file(parents);
  ScopedCleanup registered(CleanupKind::file, parents.string());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_cleanup_signal_handlers();
    raise(SIGTERM);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::exists(parents)) << "a child's signal handler removed its parent's file";
}

// The handler never runs its removal pass while another thread is inside a CreatingNames bracket:
// it waits for the bracket to close (a name made and registered in it, or registered before it, is
// removed), and a bracket opened after the handler began parks its thread for good.
TEST(CleanupSignal, HandlerWaitsForCreationsInFlightAndParksNewOnes) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const fs::path registered_before = dir.path() / "registered-before";  // ScopedCleanup, then made
  const fs::path registered_after = dir.path() / "registered-after";    // made, then ScopedCleanup
  const fs::path marker = dir.path() / "bracket-closed";                // nobody's: proves the wait
  const fs::path late = dir.path() / "late-bracket";                    // made only if not parked
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_cleanup_signal_handlers();
    ScopedCleanup before(CleanupKind::file, registered_before.string());
    std::atomic<bool> inside{false};
    std::thread in_flight([&] {
      std::optional<ScopedCleanup> after;  // outlives the bracket, as a run's registrations do
      {
        const CreatingNames bracket;
        inside = true;
        while (!cleanup_signal_handler_running()) usleep(1000);
        create_file(registered_after);
        after.emplace(CleanupKind::file, registered_after.string());  // not parked: inside a bracket
        create_file(registered_before);
        // Give a late bracket that is (wrongly) not parked the time to make its file.
        for (int i = 0; i < 500 && !fs::exists(late); ++i) usleep(1000);
        create_file(marker);
      }
      for (;;) pause();  // the process dies of the signal with this thread's names still registered
    });
    std::thread latecomer([&] {
      while (!cleanup_signal_handler_running()) usleep(1000);
      const CreatingNames bracket;
      create_file(late);
    });
    while (!inside) usleep(1000);
    raise(SIGTERM);
    _exit(92);
  }
  ASSERT_NO_FATAL_FAILURE(expect_died_of_sigterm(child));
  EXPECT_TRUE(fs::exists(marker)) << "the handler did not wait for the bracket in flight";
  EXPECT_FALSE(fs::exists(registered_before)) << "a name registered before its bracket was left";
  EXPECT_FALSE(fs::exists(registered_after)) << "a name registered inside its bracket was left";
  EXPECT_FALSE(fs::exists(late)) << "a bracket opened after the handler began was not parked";
}

// A bracket for a name registered only once made holds the signal off its own thread until the
// registration is done: a signal raised between the mkdir and the registration still removes it.
TEST(CleanupSignal, SignalInsideARegisterAfterBracketWaitsForTheRegistration) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const fs::path made = dir.path() / "made-then-registered";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_cleanup_signal_handlers();
    std::optional<ScopedCleanup> registered;
    {
      const CreatingNames bracket(NameRegistered::after);
      if (!fs::create_directory(made)) _exit(93);
      raise(SIGTERM);  // as if it came this instant
      registered.emplace(CleanupKind::directory, made.string());
    }
    _exit(92);  // not reached: the signal is delivered as the bracket closes
  }
  ASSERT_NO_FATAL_FAILURE(expect_died_of_sigterm(child));
  EXPECT_FALSE(fs::exists(made)) << "the directory made just before the signal was left";
}

// Ended on a watcher thread (core/interrupt_watch), the process waits for its job to unwind: a
// thread that would make a name then throws Interrupted (and unwinds, releasing its devices)
// instead of parking for good; nothing is registered, and a bracket's mask is put back.
TEST(CleanupSignal, AfterAWatchedEndANewNameThrowsInterruptedInsteadOfParking) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::thread([] { end_names_for_signal(); }).join();
    const int entries = cleanup_entries_for_this_process();
    // Each check a code of its own: a thread that parked instead never exits (the parent's wait
    // times out through ctest's limit), one that went ahead exits with the code that says which.
    try {
      const ScopedCleanup made(CleanupKind::file, "/var/tmp/xferbench-after-the-end");
      _exit(81);
    } catch (const Interrupted&) {
    }
    if (cleanup_entries_for_this_process() != entries) _exit(82);
    sigset_t before;
    pthread_sigmask(SIG_SETMASK, nullptr, &before);
    try {
      const CreatingNames bracket(NameRegistered::after);
      _exit(83);
    } catch (const Interrupted&) {
    }
    sigset_t after;
    pthread_sigmask(SIG_SETMASK, nullptr, &after);
    if (sigismember(&after, SIGTERM) != sigismember(&before, SIGTERM)) _exit(84);
    try {
      const CreatingNames bracket;
      _exit(85);
    } catch (const Interrupted&) {
    }
    _exit(cleanup_threads_parked() == 0 ? 0 : 86);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "81/83/85: a name went ahead after the end; 82: one was registered; 84: the "
                                       "mask was not put back; 86: a thread parked";
}

}  // namespace
}  // namespace xb
