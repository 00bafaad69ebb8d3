#include "core/cleanup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "core/error.hpp"

namespace xb {
namespace {

constexpr int kSlots = 256;
constexpr std::size_t kNameMax = 512;

enum SlotState : int { kFree = 0, kWriting = 1, kFile = 2, kShm = 3, kDirectory = 4, kSweep = 5 };

struct Slot {
  std::atomic<int> state{kFree};
  pid_t owner = 0;
  char name[kNameMax] = {};
  CleanupSweep sweep = nullptr;  // kSweep
  unsigned long long count = 0;  // kSweep
};

// See the header: the signal handler's table, and whether the handler has started. Nothing else in
// the program is global and mutable.
Slot g_slots[kSlots];
std::atomic<bool> g_ending{false};

void remove_all_owned() {
  const pid_t self = getpid();
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

void on_signal(int sig) {
  // Other threads keep running while this one cleans up: from now on none registers a new name
  // (ScopedCleanup parks it), and one that registered a name just before the first pass may create
  // the file after it, so a second pass follows a moment later.
  g_ending.store(true, std::memory_order_release);
  remove_all_owned();
  timespec moment{0, 20'000'000};
  nanosleep(&moment, nullptr);
  remove_all_owned();
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void install_cleanup_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
}

namespace {

// Takes a free slot for `name` and publishes it in `state` once filled; the slot's index.
int take_slot(std::string_view name, int state, CleanupSweep sweep, unsigned long long count) {
  // The process is ending on a signal: make nothing new that the handler might not see.
  if (g_ending.load(std::memory_order_acquire)) {
    for (;;) pause();
  }
  if (name.size() >= kNameMax) throw std::runtime_error("cleanup: name too long: " + std::string(name));
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kWriting, std::memory_order_acq_rel)) {
      g_slots[i].owner = getpid();
      std::memcpy(g_slots[i].name, name.data(), name.size());
      g_slots[i].name[name.size()] = '\0';
      g_slots[i].sweep = sweep;
      g_slots[i].count = count;
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

ScopedCleanup::~ScopedCleanup() {
  if (slot_ >= 0) g_slots[slot_].state.store(kFree, std::memory_order_release);
}

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
