#pragma once
// Names that must not outlive an interrupted run: POSIX shared-memory segments, temporary files,
// sweeps of many files by rule (a KV store's blocks), and temporary directories (removed after the
// files, and only when empty: rmdir).
//
// This is the program's one piece of process-wide mutable state, and deliberately so: a SIGINT or
// SIGTERM handler can reach nothing else. The table is fixed-size and lock-free, and the handler
// only calls unlink()/shm_unlink()/rmdir() (all async-signal-safe), then dies of the same signal so the
// parent shell sees the usual status. Each entry records the pid that created it: a forked child
// inherits the handler but never removes its parent's names.
#include <signal.h>

#include <string_view>

namespace xb {

enum class CleanupKind { file, shm, directory };

// A removal too large for one name a slot (the thousands of KV blocks a dev-sandbox aio run
// promises to remove): the handler calls `sweep(name, count)` after the files and before the
// directories. It may make async-signal-safe calls only (unlink, rmdir; no allocation, no fmt).
using CleanupSweep = void (*)(const char* name, unsigned long long count) noexcept;

// Something to end before any name is removed: the device processes a run forked, which must
// unwind and release their devices before the parent's names go and the parent dies
// (runtime/fork_launcher). Called with `arg` first thing after the open brackets are waited for,
// on the handler's or the watcher's thread; async-signal-safe calls only. The ScopedCleanup that
// registered it waits, when it goes, for a call under way (what `arg` points to must outlive it).
using CleanupAction = void (*)(void* arg) noexcept;

// Installs the SIGINT/SIGTERM handlers (idempotent). main() calls it once.
void install_cleanup_signal_handlers();

// Registers a name for the lifetime of the object; the destructor only forgets it (the owner
// removes the name itself on the normal path).
class ScopedCleanup {
 public:
  ScopedCleanup(CleanupKind kind, std::string_view name);
  ScopedCleanup(CleanupSweep sweep, std::string_view name, unsigned long long count);
  ScopedCleanup(CleanupAction action, void* arg);
  ~ScopedCleanup();
  ScopedCleanup(const ScopedCleanup&) = delete;
  ScopedCleanup& operator=(const ScopedCleanup&) = delete;

 private:
  int slot_ = -1;
};

// Whether a name is registered before the call that makes it (its name is known and ours alone: a
// pid and a random tag in it, or a sweep's rule) or only once made (a name a user or a peer chose:
// registering it before an O_EXCL create that fails would let a signal remove another's file).
enum class NameRegistered { before, after };

// Brackets the system calls that bring a registered name into being (open with O_CREAT, shm_open,
// mkdir, mkdtemp, the rename that publishes a file) together with the name's registration. The
// handler waits (at most 2 s) for every bracket open on another thread to close before it removes
// anything, and a thread that opens one after the handler began is parked until the process dies
// (or, where the end is taken on a watcher thread that waits for the job to unwind, throws
// Interrupted, core/stop.hpp; registering a name outside a bracket then does the same).
// So a name is never created behind the handler's back, however long a thread was descheduled
// between registering the name and making it: the race an interrupt test found under load (a
// block, or a segment, made just after the sweep). With NameRegistered::after the bracket also
// blocks SIGINT/SIGTERM/SIGHUP on its own thread (two sigprocmask calls), so the handler cannot run
// on it between the creation and the registration; with `before` the handler may run there, and
// removes the registered name whether or not it was made yet.
class CreatingNames {
 public:
  explicit CreatingNames(NameRegistered registration = NameRegistered::before);
  ~CreatingNames();
  CreatingNames(const CreatingNames&) = delete;
  CreatingNames& operator=(const CreatingNames&) = delete;

 private:
  bool masked_ = false;
  sigset_t saved_{};
};

// `create()` (one system call, or a few that belong together) inside a CreatingNames bracket for a
// name registered before it.
template <class Create>
decltype(auto) creating_names(Create&& create) {
  const CreatingNames bracket;
  return create();
}

// For a thread that takes the end signals (SIGINT, SIGTERM, SIGHUP) synchronously rather than in
// the handler (core/interrupt_watch): the handler's first half, the same guarantees (no new name
// from now on, open brackets waited for, every name this process registered removed), then
// whatever the taker does (deliver partial results), then die_of_signal: the default action, so
// the shell sees the usual status.
void end_names_for_signal();
[[noreturn]] void die_of_signal(int sig);
// The end signals as a set, and whether they are being watched (blocked in every thread but the
// watcher's): a child forked meanwhile unblocks them, having no watcher of its own.
sigset_t end_signal_set();
// For a thread that must not go on while another ends the process on a signal.
[[noreturn]] void park_until_the_process_ends();
void set_end_signals_watched(bool watched);

// Whether the signal handler has begun in this process (for tests: another thread sees it run).
bool cleanup_signal_handler_running();
// How many threads have parked until the process ends (a name they would have made after the
// end began): a job with a parked thread will not return, and nobody should wait for it.
int cleanup_threads_parked();

// How many names are registered by this process now (for tests).
int cleanup_entries_for_this_process();

}  // namespace xb
