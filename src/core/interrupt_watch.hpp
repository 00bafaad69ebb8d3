#pragma once
// Ctrl-C that keeps what was measured. A signal handler may call almost nothing
// (core/cleanup's removes names and dies), so a run that must still print and write its finished
// cases takes SIGINT, SIGTERM and SIGHUP on a thread of its own instead: while an InterruptWatch
// lives, those signals are blocked in the thread that made it and so in every thread started after
// (the job's), and a watcher thread reads them from a signalfd. On one it removes the run's names
// as the handler would (end_names_for_signal), calls `on_signal(sig)` on the watcher thread, and
// dies of that signal (the shell sees 130 for Ctrl-C; cli/partial_results' callback first stops the
// job and waits for it to unwind, docs/method.md). Nothing is interrupted meanwhile: the job's
// threads keep running, holding no lock the callback might wait on forever. A second signal
// during the callback ends the process at once (the callback might be stuck on a full pipe).
//
// Make it on the thread that runs the job, before the job starts any thread; a forked child
// unblocks the signals (core/cleanup's fork hook) and keeps the handler's behaviour.
#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

namespace xb {

class InterruptWatch {
 public:
  explicit InterruptWatch(std::function<void(int sig)> on_signal);
  // Stops the watcher and restores the signal mask, a signal that came meanwhile then going to the
  // handler as before. If the watcher has begun handling a signal, parks the calling thread instead
  // (the watcher ends the process): the job must not go on to exit on its own path meanwhile.
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  // Whether an end signal has come: pending (not taken yet) or taken by the watcher. A job that
  // fails because of the signal (a device process killed by the same Ctrl-C) must leave the
  // delivery to the watcher: the signal reached this process before any child could die of it.
  bool signalled() const;

 private:
  void watch();
  void release();  // the descriptors closed, the mask as it was

  std::function<void(int)> on_signal_;
  int signal_fd_ = -1;
  int stop_fd_ = -1;  // an eventfd: the destructor's word to the watcher
  sigset_t saved_mask_{};
  std::atomic<bool> waiting_{false};
  std::atomic<bool> taken_{false};
  std::atomic<bool> watching_{true};  // false once the watcher gave up (its poll failed)  // set before the signal is read, so signalled() never misses it
  std::thread watcher_;
};

}  // namespace xb
