#include "runtime/fork_launcher.hpp"

#include <fmt/format.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <memory>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "core/cleanup.hpp"
#include "core/error.hpp"
#include "core/unique_fd.hpp"

namespace xb {
namespace {

// kUnavailable: the rank threw Unavailable (the machine lacks what it needs), which run() throws
// again as Unavailable so that the case is waived, not failed.
// kResultLost: the rank ended but could not write its text (errno in SlotHeader::error).
enum SlotState : std::uint32_t { kPending = 0, kDone = 1, kFailed = 2, kUnavailable = 3, kResultLost = 4 };

// The ranks' barrier and the word that stops them. Not a pthread barrier: a rank must be able to
// leave the barrier when the run is stopped (a signal, another rank's failure), so that every rank
// unwinds and releases what it holds (an NPU's memory, streams and its aclFinalize: the device
// runtime's contract) instead of being killed while it waits. Process-shared futexes on words of
// the shared mapping.
struct SharedHeader {
  std::atomic<std::uint32_t> arrived;     // ranks at the barrier of this generation
  std::atomic<std::uint32_t> generation;  // moves on when the last rank arrives: the others go
  std::atomic<std::uint32_t> stop;        // not 0: every rank unwinds at its next barrier
};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free, "futex words must be plain 32-bit words");

// FUTEX_WAIT/FUTEX_WAKE without the private flag: the word is shared between processes. Both are
// async-signal-safe system calls (the child's signal handler wakes the barrier).
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected, long timeout_ms) {
  const timespec timeout{timeout_ms / 1000, (timeout_ms % 1000) * 1'000'000};
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected, &timeout, nullptr, 0);
}
void futex_wake_all(std::atomic<std::uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

// A stopped run, as the rank that saw it at its barrier throws it.
class RunStopped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Asks every rank to stop and wakes those at the barrier. Async-signal-safe (an atomic store, a
// system call): the child's signal handler calls it.
void request_stop(SharedHeader& h, std::uint32_t why) {
  std::uint32_t none = 0;
  h.stop.compare_exchange_strong(none, why);
  futex_wake_all(h.generation);
}

// Each rank's part of the collectives' exchange area: what it passes to allgather (and the
// collectives built on it), read by every rank between two barriers.
struct ExchangeSlot {
  std::uint32_t length;
  char data[kForkExchangeBytes];
};

// How each rank ended; what it returned (or its error's message) is in its result file.
struct SlotHeader {
  std::atomic<std::uint32_t> state;
  std::uint32_t error;  // with kResultLost: the write's errno (set before the state)
};

// The shared mapping: header, `ranks` exchange slots, then `ranks` slot headers.
class SharedArea {
 public:
  explicit SharedArea(int ranks) {
    results_at_ = sizeof(SharedHeader) + sizeof(ExchangeSlot) * static_cast<std::size_t>(ranks);
    bytes_ = results_at_ + sizeof(SlotHeader) * static_cast<std::size_t>(ranks);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw_errno("mmap of the fork launcher's shared area");
    base_ = static_cast<std::byte*>(p);
    new (header()) SharedHeader{0, 0, 0};
    for (int r = 0; r < ranks; ++r) {
      // Not value-initialized: the anonymous mapping is zero already, and 64 KiB per rank written
      // here would be memory every run commits whether or not it exchanges anything.
      new (exchange(r)) ExchangeSlot;
      new (slot(r)) SlotHeader{kPending, 0};
    }
  }
  // Every rank has exited by now: unmapping is all the release the shared words need.
  ~SharedArea() { munmap(base_, bytes_); }
  SharedArea(const SharedArea&) = delete;
  SharedArea& operator=(const SharedArea&) = delete;

  SharedHeader* header() const { return reinterpret_cast<SharedHeader*>(base_); }
  ExchangeSlot* exchange(int r) const { return reinterpret_cast<ExchangeSlot*>(base_ + sizeof(SharedHeader)) + r; }
  SlotHeader* slot(int r) const {
    return reinterpret_cast<SlotHeader*>(base_ + results_at_) + r;
  }

 private:
  std::size_t results_at_ = 0;
  std::size_t bytes_ = 0;
  std::byte* base_ = nullptr;
};

// Each rank's result, however large: an anonymous memory file per rank (memfd: nothing in
// /dev/shm or on disk), made before the fork, written by the rank, read by the parent once the
// rank has exited. No caller has to guess how large a rank's result will be.
class ResultFile {
 public:
  explicit ResultFile(int rank) : fd_(memfd_create(fmt::format("xferbench-rank-{}", rank).c_str(), MFD_CLOEXEC)) {
    if (!fd_.valid()) throw_errno(fmt::format("memfd_create for rank {}'s result", rank));
  }
  // In the child: 0 when the text is written whole, else the errno of the write that failed.
  int write(const std::string& text) const {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = pwrite(fd_.get(), text.data() + done, text.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return errno;
      if (n == 0) return EIO;
      done += static_cast<std::size_t>(n);
    }
    return 0;
  }
  std::string read(int rank) const {
    struct stat st{};
    if (fstat(fd_.get(), &st) != 0) throw_errno(fmt::format("fstat of rank {}'s result", rank));
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = pread(fd_.get(), text.data() + done, text.size() - done, static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw_errno(fmt::format("reading rank {}'s result", rank));
      if (n == 0) break;
      done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    return text;
  }

 private:
  UniqueFd fd_;
};

// The stop word says why: a signal's number, or kStopForFailure when the parent stops the others
// because one rank failed.
constexpr std::uint32_t kStopForFailure = 1000;
// The stop word when the parent ends on a signal (ChildrenOnEnd, below).
constexpr std::uint32_t kStopForEnd = 1001;

void throw_if_stopped(const SharedHeader& h) {
  const std::uint32_t why = h.stop.load(std::memory_order_acquire);
  if (why == 0) return;
  if (why == kStopForFailure) throw RunStopped("stopped: another device process failed");
  if (why == kStopForEnd) throw RunStopped("stopped: the run is ending on a signal");
  throw RunStopped(fmt::format("interrupted by {}", sigabbrev_np(static_cast<int>(why)) != nullptr
                                                        ? fmt::format("SIG{}", sigabbrev_np(static_cast<int>(why)))
                                                        : fmt::format("signal {}", why)));
}

// How long a stopped rank has to unwind before it is killed.
constexpr auto kForkStopGrace = std::chrono::seconds(10);

// The children of one run, for the parent's end-signal path (core/cleanup calls stop_on_end
// before it removes the run's names and the process dies): each is asked to stop, and reaped, or
// killed after the grace period. Async-signal-safe throughout; the pids are atomics because the
// running job reaps the same children on its own thread. The registration goes first when the
// object does, waiting for an action under way (core/cleanup).
class ChildrenOnEnd {
 public:
  ChildrenOnEnd(SharedHeader& header, int ranks)
      : header_(header), pids_(std::make_unique<std::atomic<pid_t>[]>(static_cast<std::size_t>(ranks))), ranks_(ranks),
        registration_(&ChildrenOnEnd::stop_on_end, this) {}
  ~ChildrenOnEnd() = default;
  ChildrenOnEnd(const ChildrenOnEnd&) = delete;
  ChildrenOnEnd& operator=(const ChildrenOnEnd&) = delete;
  void forked(int rank, pid_t pid) { pids_[static_cast<std::size_t>(rank)].store(pid, std::memory_order_release); }

 private:
  static void stop_on_end(void* self) noexcept {
    auto& me = *static_cast<ChildrenOnEnd*>(self);
    request_stop(me.header_, kStopForEnd);
    timespec start{};
    clock_gettime(CLOCK_MONOTONIC, &start);
    const timespec pause{0, 2'000'000};
    for (int r = 0; r < me.ranks_; ++r) {
      const pid_t pid = me.pids_[static_cast<std::size_t>(r)].load(std::memory_order_acquire);
      if (pid <= 0) continue;
      for (;;) {
        const pid_t done = waitpid(pid, nullptr, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) break;  // ended (or reaped by the job)
        timespec now{};
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= std::chrono::seconds(kForkStopGrace).count()) {
          kill(pid, SIGKILL);
          waitpid(pid, nullptr, 0);
          break;
        }
        nanosleep(&pause, nullptr);
      }
    }
  }

  SharedHeader& header_;
  std::unique_ptr<std::atomic<pid_t>[]> pids_;
  int ranks_;
  ScopedCleanup registration_;  // last: registered once the rest is whole, forgotten first
};

class ForkRuntime final : public Runtime {
 public:
  ForkRuntime(int rank, int size, const SharedArea& area) : rank_(rank), size_(size), area_(area) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string_view name() const override { return "fork"; }
  // Throws RunStopped once the run is stopped, whether the rank was waiting or just came.
  void barrier() override {
    SharedHeader& h = *area_.header();
    throw_if_stopped(h);
    const std::uint32_t generation = h.generation.load(std::memory_order_acquire);
    if (h.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(size_)) {
      // The last one: reset the count before moving the generation on, so no rank released by
      // it can arrive at the next barrier and count into this one.
      h.arrived.store(0, std::memory_order_relaxed);
      h.generation.fetch_add(1, std::memory_order_release);
      futex_wake_all(h.generation);
      return;
    }
    while (h.generation.load(std::memory_order_acquire) == generation) {
      throw_if_stopped(h);
      // Woken by the last rank or by a stop; the timeout only bounds a wake that raced the check.
      futex_wait(h.generation, generation, 200);
    }
  }
  // Each rank writes its slot, all meet, each reads every slot, all meet again (so no rank
  // overwrites its slot for the next collective while another still reads it).
  std::vector<std::string> allgather(const std::string& mine) override {
    if (mine.size() > kForkExchangeBytes) {
      // Every rank must still take part, or the others wait at the barrier for ever: the parent
      // sees this rank fail and stops them.
      throw std::runtime_error(fmt::format("fork runtime: rank {} passed {} bytes to a collective, more than its {}",
                                           rank_, mine.size(), kForkExchangeBytes));
    }
    ExchangeSlot* own = area_.exchange(rank_);
    std::memcpy(own->data, mine.data(), mine.size());
    own->length = static_cast<std::uint32_t>(mine.size());
    barrier();
    std::vector<std::string> all;
    all.reserve(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) all.emplace_back(area_.exchange(r)->data, area_.exchange(r)->length);
    barrier();
    return all;
  }

 private:
  int rank_;
  int size_;
  const SharedArea& area_;
};

// The child's shared header, for its signal handler: a handler can reach nothing but a global.
// Set once in each child before the handler is installed; never in the parent. And the signal
// this process took last (the stop word is every rank's: another rank's Ctrl-C is not this one's).
std::atomic<SharedHeader*> child_header{nullptr};
std::atomic<int> child_took_signal{0};

// In a child, SIGINT, SIGTERM and SIGHUP stop the run instead of killing the rank: it unwinds at
// its next barrier and releases everything it holds. The same signal a second time (Ctrl-C
// pressed again: the unwinding is stuck) ends it at once. A different one (the parent's death
// signal after the Ctrl-C that reached the whole group) does not cut the unwinding short.
extern "C" void stop_run_on_signal(int sig) {
  SharedHeader* h = child_header.load(std::memory_order_relaxed);
  if (h == nullptr) return;
  if (child_took_signal.exchange(sig, std::memory_order_relaxed) == sig) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  request_stop(*h, static_cast<std::uint32_t>(sig));
}

void stop_run_on_signals(SharedHeader& h) {
  child_header.store(&h, std::memory_order_relaxed);
  struct sigaction sa{};
  sa.sa_handler = stop_run_on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

[[noreturn]] void child_main(int rank, int ranks, const SharedArea& area, const ResultFile& out,
                             const Launcher::Body& body, pid_t parent) {
  stop_run_on_signals(*area.header());
  // Stop with the parent: an orphaned rank would hold memory and wait at the barrier for ever.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(1);
  SlotState state = kDone;
  std::string text;
  try {
    ForkRuntime rt(rank, ranks, area);
    text = body(rt);
  } catch (const Unavailable& e) {
    state = kUnavailable;
    text = e.what();
  } catch (const std::exception& e) {
    state = kFailed;
    text = e.what();
  }
  // The state goes up only once the text is whole: the parent reads nothing half-written.
  if (const int err = out.write(text); err != 0) {
    area.slot(rank)->error = static_cast<std::uint32_t>(err);
    state = kResultLost;
  }
  area.slot(rank)->state.store(state, std::memory_order_release);
  const int code = state == kDone ? 0 : 1;
  // _exit, not exit: the child must not run the parent's destructors (they would unlink the
  // parent's shared segment and files) nor flush the parent's stdio buffers a second time.
  _exit(code);
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  if (WIFEXITED(status)) return fmt::format("exited with code {}", WEXITSTATUS(status));
  return "ended abnormally";
}

}  // namespace

ForkLauncher::ForkLauncher(int ranks) : ranks_(ranks) {
  if (ranks < 1) throw UsageError("fork launcher: at least one rank is needed");
}

std::vector<std::string> ForkLauncher::run(const Body& body) {
  SharedArea area(ranks_);
  ChildrenOnEnd on_end(*area.header(), ranks_);
  std::vector<ResultFile> results_of;
  results_of.reserve(static_cast<std::size_t>(ranks_));
  for (int r = 0; r < ranks_; ++r) results_of.emplace_back(r);
  std::fflush(nullptr);  // or buffered output would be written once per child too
  const pid_t parent = getpid();
  std::vector<pid_t> children;
  // The others would wait at the barrier for ever: they are asked to stop and unwind (releasing
  // their devices' resources), and killed if they have not ended within kForkStopGrace.
  auto stop_children = [&children, &area] {
    request_stop(*area.header(), kStopForFailure);
    const auto deadline = std::chrono::steady_clock::now() + kForkStopGrace;
    for (pid_t& c : children) {
      while (c > 0) {
        const pid_t done = waitpid(c, nullptr, WNOHANG);
        if (done == c || (done < 0 && errno != EINTR)) {
          c = -1;
        } else if (std::chrono::steady_clock::now() >= deadline) {
          kill(c, SIGKILL);
          waitpid(c, nullptr, 0);
          c = -1;
        } else {
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
      }
    }
  };
  for (int r = 0; r < ranks_; ++r) {
    const pid_t pid = fork();
    if (pid < 0) {
      const int err = errno;
      stop_children();
      throw SystemError(fmt::format("fork of device process {}", r), err);
    }
    if (pid == 0) child_main(r, ranks_, area, results_of[static_cast<std::size_t>(r)], body, parent);
    children.push_back(pid);
    on_end.forked(r, pid);
  }

  std::string failure;
  bool unavailable = false;
  int remaining = ranks_;
  while (remaining > 0) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    int rank = -1;
    for (int r = 0; r < ranks_; ++r) {
      if (children[static_cast<std::size_t>(r)] == pid) rank = r;
    }
    if (rank < 0) continue;
    children[static_cast<std::size_t>(rank)] = -1;
    --remaining;
    const auto state = area.slot(rank)->state.load(std::memory_order_acquire);
    const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0 && state == kDone;
    if (!clean && failure.empty()) {
      // The others would wait at the barrier for the dead one: stop them first, so that nothing
      // below (reading the rank's message) can leave them waiting.
      stop_children();
      remaining = 0;
      unavailable = state == kUnavailable;
      if (state == kFailed || state == kUnavailable) {
        failure = fmt::format("device process {}: {}", rank, results_of[static_cast<std::size_t>(rank)].read(rank));
      } else if (state == kResultLost) {
        failure = fmt::format("device process {} could not write what it returned into its result file (memfd): {}",
                              rank, std::strerror(static_cast<int>(area.slot(rank)->error)));
      } else {
        failure = fmt::format("device process {} {}", rank, describe_status(status));
      }
    }
  }
  if (unavailable) throw Unavailable(failure);
  if (!failure.empty()) throw std::runtime_error(failure);

  std::vector<std::string> results;
  for (int r = 0; r < ranks_; ++r) results.push_back(results_of[static_cast<std::size_t>(r)].read(r));
  return results;
}

}  // namespace xb
