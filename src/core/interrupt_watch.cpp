#include "core/interrupt_watch.hpp"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

#include "core/cleanup.hpp"

namespace xb {

InterruptWatch::InterruptWatch(std::function<void(int)> on_signal) : on_signal_(std::move(on_signal)) {
  const sigset_t set = end_signal_set();
  // Blocked before the signalfd exists: a signal in between waits, pending, for the watcher.
  if (pthread_sigmask(SIG_BLOCK, &set, &saved_mask_) != 0) {
    throw std::runtime_error("InterruptWatch: pthread_sigmask failed");
  }
  set_end_signals_watched(true);
  signal_fd_ = signalfd(-1, &set, SFD_CLOEXEC);
  stop_fd_ = eventfd(0, EFD_CLOEXEC);
  if (signal_fd_ < 0 || stop_fd_ < 0) {
    const std::string why = std::strerror(errno);
    release();
    throw std::runtime_error("InterruptWatch: signalfd/eventfd: " + why);
  }
  try {
    watcher_ = std::thread([this] { watch(); });
  } catch (...) {
    release();
    throw;
  }
  // Back only once the watcher is waiting: a thread still starting allocates (ASan's thread setup
  // does), and a job may fork the moment this returns; a fork while another thread holds the
  // allocator's lock would leave the child's allocator locked (cli/progress.cpp says more).
  waiting_.wait(false);
}

void InterruptWatch::release() {
  if (signal_fd_ >= 0) close(signal_fd_);
  if (stop_fd_ >= 0) close(stop_fd_);
  signal_fd_ = stop_fd_ = -1;
  set_end_signals_watched(false);
  pthread_sigmask(SIG_SETMASK, &saved_mask_, nullptr);
}

void InterruptWatch::watch() {
  pollfd fds[2] = {{signal_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
  waiting_.store(true);
  waiting_.notify_all();
  for (;;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      watching_.store(false, std::memory_order_seq_cst);
      return;  // cannot watch: the signals stay blocked until the destructor; nothing is lost
    }
    if ((fds[1].revents & POLLIN) != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    taken_.store(true, std::memory_order_seq_cst);
    signalfd_siginfo info{};
    if (read(signal_fd_, &info, sizeof info) != static_cast<ssize_t>(sizeof info)) continue;
    const int sig = static_cast<int>(info.ssi_signo);
    end_names_for_signal();
    // From here a second end signal ends the process at once: the handler, taken on this thread
    // (the only one not blocking the signals), removes what this thread made meanwhile (the
    // results file's temporary) and dies.
    const sigset_t set = end_signal_set();
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    try {
      if (on_signal_) on_signal_(sig);
    } catch (const std::exception& e) {
      std::cerr << "xferbench: while ending on a signal: " << e.what() << '\n';
    }
    die_of_signal(sig);
  }
}

bool InterruptWatch::signalled() const {
  // Pending first, then taken: the watcher sets taken_ before its read clears the pending signal,
  // so one of the two sees it whenever it came before this call.
  // A watcher that stopped watching (its poll failed) will never take a pending signal.
  if (!watching_.load(std::memory_order_seq_cst)) return taken_.load(std::memory_order_seq_cst);
  sigset_t pending;
  sigemptyset(&pending);
  if (sigpending(&pending) == 0) {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      if (sigismember(&pending, sig) == 1) return true;
    }
  }
  return taken_.load(std::memory_order_seq_cst);
}

InterruptWatch::~InterruptWatch() {
  if (cleanup_signal_handler_running()) park_until_the_process_ends();
  const std::uint64_t one = 1;
  if (write(stop_fd_, &one, sizeof one) != static_cast<ssize_t>(sizeof one)) park_until_the_process_ends();
  // A signal the watcher took just before the word: join never returns (the watcher ends the
  // process), which is what a run being interrupted wants.
  watcher_.join();
  release();
}

}  // namespace xb
