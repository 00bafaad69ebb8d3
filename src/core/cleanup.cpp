#include "core/cleanup.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "core/error.hpp"
#include "core/stop.hpp"

namespace xb {
namespace {

constexpr int kSlots = 256;
constexpr std::size_t kNameMax = 512;

enum SlotState : int { kFree = 0, kWriting = 1, kFile = 2, kShm = 3, kDirectory = 4, kSweep = 5, kAction = 6, kActionRunning = 7 };

struct Slot {
  std::atomic<int> state{kFree};
  pid_t owner = 0;
  char name[kNameMax] = {};
  CleanupSweep sweep = nullptr;  // kSweep
  unsigned long long count = 0;  // kSweep
  CleanupAction action = nullptr;  // kAction
  void* arg = nullptr;             // kAction
};

// See the header: the signal handler's table, whether the handler has started, and how many
// CreatingNames brackets are open (in all threads, and in this one). Nothing else in the program is
// global and mutable. The thread-local is a plain int of the executable (initial/local-exec TLS):
// reading it in the handler calls nothing.
Slot g_slots[kSlots];
std::atomic<bool> g_ending{false};
std::atomic<int> g_creating{0};
constinit thread_local int t_creating = 0;
// The thread that took an end signal synchronously (end_names_for_signal) and now delivers what
// the run measured: it may still make and register names (the results file's temporary), which a
// second signal's handler removes.
constinit thread_local bool t_ending_thread = false;

// How long the handler waits for the brackets of other threads to close: a create call stuck on a
// dead network file system must not keep an interrupted run alive.
constexpr int kCreatingWaitMs = 2000;

void remove_all_owned() {
  const pid_t self = getpid();
  // What must end before the names go (forked device processes unwinding).
  // Marked running meanwhile: the owner's ScopedCleanup waits for it before its object goes.
  for (auto& slot : g_slots) {
    int expected = kAction;
    if (slot.owner == self && slot.state.compare_exchange_strong(expected, kActionRunning, std::memory_order_acq_rel)) {
      slot.action(slot.arg);
      slot.state.store(kAction, std::memory_order_release);
    }
  }
  for (auto& slot : g_slots) {
    const int state = slot.state.load(std::memory_order_acquire);
    if (slot.owner != self) continue;
    if (state == kFile) unlink(slot.name);
    if (state == kShm) shm_unlink(slot.name);
  }
  for (auto& slot : g_slots) {
    if (slot.owner == self && slot.state.load(std::memory_order_acquire) == kSweep) slot.sweep(slot.name, slot.count);
  }
  // Directories after every file (those inside them included), the most recently registered
  // first: rmdir only removes what is empty by then, so nothing else is ever deleted.
  for (int i = kSlots - 1; i >= 0; --i) {
    Slot& slot = g_slots[i];
    if (slot.owner == self && slot.state.load(std::memory_order_acquire) == kDirectory) rmdir(slot.name);
  }
}

void end_names() {
  // Other threads keep running while this one cleans up. From the store on, none registers a new
  // name or opens a CreatingNames bracket (both park the thread); the brackets already open are
  // waited for, so every name made by then is registered and exists when the removal pass runs.
  // Sequentially consistent on both sides: either a bracket sees g_ending, or this load sees the
  // bracket. Brackets of this thread (the one the signal interrupted) never close: not counted.
  g_ending.store(true, std::memory_order_seq_cst);
  timespec moment{0, 1'000'000};
  for (int waited = 0; waited < kCreatingWaitMs && g_creating.load(std::memory_order_seq_cst) > t_creating; ++waited) {
    nanosleep(&moment, nullptr);
  }
  remove_all_owned();
}

void on_signal(int sig) {
  end_names();
  signal(sig, SIG_DFL);
  raise(sig);
}

// The signals that end a run, as a set (blocked while a watcher thread takes them: InterruptWatch).
sigset_t end_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

// Whether the process takes the end signals on a watcher thread with every other thread blocking
// them (core/interrupt_watch): a forked child has no watcher, so it must take them itself.
std::atomic<bool> g_signals_watched{false};

// A forked child has only the forking thread: brackets other threads held at the fork never close
// in it, so its count restarts from that thread's own; and with the end signals blocked for a
// watcher the child lacks, it unblocks them so its own handler runs (Ctrl-C ends it as before).
void after_fork_in_child() {
  g_creating.store(t_creating, std::memory_order_seq_cst);
  if (g_signals_watched.load(std::memory_order_seq_cst)) {
    g_signals_watched.store(false, std::memory_order_seq_cst);
    const sigset_t set = end_signals();
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  }
}

// Threads parked so far: a job with one of them will not return (PartialRun stops waiting).
std::atomic<int> g_parked{0};

[[noreturn]] void park_until_the_handler_ends_the_process() {
  g_parked.fetch_add(1, std::memory_order_seq_cst);
  for (;;) pause();
}

// Whether the end began on a watcher thread (end_names_for_signal) rather than in the handler: the
// process then waits for its job to unwind (cli/partial_results) before it dies, so a thread that
// would make a name throws Interrupted and unwinds with the job (releasing its devices: an NPU's
// aclFinalize) instead of parking for good. Set before g_ending, so whoever sees one sees both.
std::atomic<bool> g_ending_unwinds{false};

// A name the process must not make now that its end began: unwind or park (above).
[[noreturn]] void refuse_new_name() {
  if (g_ending_unwinds.load(std::memory_order_seq_cst)) throw Interrupted();
  park_until_the_handler_ends_the_process();
}

}  // namespace

void end_names_for_signal() {
  t_ending_thread = true;
  g_ending_unwinds.store(true, std::memory_order_seq_cst);
  end_names();
}

void die_of_signal(int sig) {
  signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  raise(sig);
  _exit(128 + sig);  // not reached: the default action of an end signal ends the process
}

sigset_t end_signal_set() { return end_signals(); }

void park_until_the_process_ends() { park_until_the_handler_ends_the_process(); }

void set_end_signals_watched(bool watched) { g_signals_watched.store(watched, std::memory_order_seq_cst); }

void install_cleanup_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
  // Registered once per call: a second registration repeats the same store, which is harmless.
  pthread_atfork(nullptr, nullptr, after_fork_in_child);
}

CreatingNames::CreatingNames(NameRegistered registration) {
  if (registration == NameRegistered::after) {
    sigset_t ours;
    sigemptyset(&ours);
    sigaddset(&ours, SIGINT);
    sigaddset(&ours, SIGTERM);
    sigaddset(&ours, SIGHUP);
    masked_ = pthread_sigmask(SIG_BLOCK, &ours, &saved_) == 0;
  }
  g_creating.fetch_add(1, std::memory_order_seq_cst);
  // A bracket nested in an open one goes ahead: the handler is waiting for the outer one.
  if (++t_creating == 1 && g_ending.load(std::memory_order_seq_cst) && !t_ending_thread) {
    --t_creating;
    g_creating.fetch_sub(1, std::memory_order_seq_cst);
    // Unwinding: the constructor throws, so the destructor will not put the mask back.
    if (masked_) pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
    refuse_new_name();
  }
}

CreatingNames::~CreatingNames() {
  --t_creating;
  g_creating.fetch_sub(1, std::memory_order_seq_cst);
  // A signal that came meanwhile is delivered here, to a handler that sees the name registered.
  if (masked_) pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
}

namespace {

// Takes a free slot for `name` and publishes it in `state` once filled; the slot's index.
int take_slot(std::string_view name, int state, CleanupSweep sweep, unsigned long long count,
              CleanupAction action = nullptr, void* arg = nullptr) {
  // The process is ending on a signal: make nothing new that the handler might not see. Inside a
  // CreatingNames bracket the handler is waiting for this very registration (the name may exist
  // already): it goes ahead.
  if (g_ending.load(std::memory_order_seq_cst) && t_creating == 0 && !t_ending_thread) refuse_new_name();
  if (name.size() >= kNameMax) throw std::runtime_error("cleanup: name too long: " + std::string(name));
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kWriting, std::memory_order_acq_rel)) {
      g_slots[i].owner = getpid();
      std::memcpy(g_slots[i].name, name.data(), name.size());
      g_slots[i].name[name.size()] = '\0';
      g_slots[i].sweep = sweep;
      g_slots[i].count = count;
      g_slots[i].action = action;
      g_slots[i].arg = arg;
      g_slots[i].state.store(state, std::memory_order_release);
      return i;
    }
  }
  throw std::runtime_error("cleanup: more than 256 temporary names in one process");
}

}  // namespace

ScopedCleanup::ScopedCleanup(CleanupKind kind, std::string_view name)
    : slot_(take_slot(name, kind == CleanupKind::file ? kFile : kind == CleanupKind::shm ? kShm : kDirectory, nullptr,
                      0)) {}

ScopedCleanup::ScopedCleanup(CleanupSweep sweep, std::string_view name, unsigned long long count)
    : slot_(take_slot(name, kSweep, sweep, count)) {}

ScopedCleanup::ScopedCleanup(CleanupAction action, void* arg) : slot_(take_slot("", kAction, nullptr, 0, action, arg)) {}

ScopedCleanup::~ScopedCleanup() {
  if (slot_ < 0) return;
  std::atomic<int>& state = g_slots[slot_].state;
  // An action being run (on the signal's thread) still uses what `arg` points to: wait for it.
  for (int s = state.load(std::memory_order_acquire);; s = state.load(std::memory_order_acquire)) {
    if (s == kActionRunning) {
      const timespec moment{0, 1'000'000};
      nanosleep(&moment, nullptr);
    } else if (state.compare_exchange_weak(s, kFree, std::memory_order_acq_rel)) {
      break;
    }
  }
}

bool cleanup_signal_handler_running() { return g_ending.load(std::memory_order_seq_cst); }

int cleanup_threads_parked() { return g_parked.load(std::memory_order_seq_cst); }

int cleanup_entries_for_this_process() {
  int n = 0;
  const pid_t self = getpid();
  for (const auto& slot : g_slots) {
    const int state = slot.state.load(std::memory_order_acquire);
    if ((state == kFile || state == kShm || state == kDirectory || state == kSweep) && slot.owner == self) ++n;
  }
  return n;
}

}  // namespace xb
