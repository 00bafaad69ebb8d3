#include "runtime/fork_launcher.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/error.hpp"

namespace xb {
namespace {

// kUnavailable: the rank threw Unavailable (the machine lacks what it needs), which run() throws
// again as Unavailable so that the case is waived, not failed.
enum SlotState : std::uint32_t { kPending = 0, kDone = 1, kFailed = 2, kUnavailable = 3 };

struct SharedHeader {
  pthread_barrier_t barrier;
};

// Each rank's part of the collectives' exchange area: what it passes to allgather (and the
// collectives built on it), read by every rank between two barriers.
struct ExchangeSlot {
  std::uint32_t length;
  char data[kForkExchangeBytes];
};

struct SlotHeader {
  std::atomic<std::uint32_t> state;
  std::uint32_t length;
};

// The shared mapping: header, `ranks` exchange slots, then `ranks` result slots of
// (SlotHeader + max_result_bytes).
class SharedArea {
 public:
  SharedArea(int ranks, std::size_t max_bytes)
      : slot_bytes_(sizeof(SlotHeader) + (max_bytes + 7) / 8 * 8) {
    results_at_ = sizeof(SharedHeader) + sizeof(ExchangeSlot) * static_cast<std::size_t>(ranks);
    bytes_ = results_at_ + slot_bytes_ * static_cast<std::size_t>(ranks);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw_errno("mmap of the fork launcher's shared area");
    base_ = static_cast<std::byte*>(p);
    pthread_barrierattr_t attr;
    pthread_barrierattr_init(&attr);
    pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
    pthread_barrier_init(&header()->barrier, &attr, static_cast<unsigned>(ranks));
    pthread_barrierattr_destroy(&attr);
    for (int r = 0; r < ranks; ++r) {
      // Not value-initialized: the anonymous mapping is zero already, and 64 KiB per rank written
      // here would be memory every run commits whether or not it exchanges anything.
      new (exchange(r)) ExchangeSlot;
      new (slot(r)) SlotHeader{kPending, 0};
    }
  }
  // No pthread_barrier_destroy: a rank killed while it waited at the barrier leaves it counted as
  // in use, and glibc's destroy then waits for that rank for ever. Every rank has exited by now;
  // unmapping is all the release a process-shared barrier needs.
  ~SharedArea() { munmap(base_, bytes_); }
  SharedArea(const SharedArea&) = delete;
  SharedArea& operator=(const SharedArea&) = delete;

  SharedHeader* header() const { return reinterpret_cast<SharedHeader*>(base_); }
  ExchangeSlot* exchange(int r) const { return reinterpret_cast<ExchangeSlot*>(base_ + sizeof(SharedHeader)) + r; }
  SlotHeader* slot(int r) const {
    return reinterpret_cast<SlotHeader*>(base_ + results_at_ + slot_bytes_ * static_cast<std::size_t>(r));
  }
  char* slot_data(int r) const { return reinterpret_cast<char*>(slot(r) + 1); }
  std::size_t slot_capacity() const { return slot_bytes_ - sizeof(SlotHeader); }

  void write(int r, SlotState state, const std::string& text) const {
    const std::size_t n = std::min(text.size(), slot_capacity());
    std::memcpy(slot_data(r), text.data(), n);
    slot(r)->length = static_cast<std::uint32_t>(n);
    slot(r)->state.store(state, std::memory_order_release);
  }

 private:
  std::size_t slot_bytes_;
  std::size_t results_at_ = 0;
  std::size_t bytes_ = 0;
  std::byte* base_ = nullptr;
};

class ForkRuntime final : public Runtime {
 public:
  ForkRuntime(int rank, int size, const SharedArea& area) : rank_(rank), size_(size), area_(area) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void barrier() override { pthread_barrier_wait(&area_.header()->barrier); }
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

[[noreturn]] void child_main(int rank, int ranks, const SharedArea& area, const Launcher::Body& body,
                             pid_t parent) {
  // Die with the parent: an orphaned rank would hold memory and wait at the barrier for ever.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(1);
  int code = 0;
  try {
    ForkRuntime rt(rank, ranks, area);
    std::string result = body(rt);
    if (result.size() > area.slot_capacity()) {
      throw std::runtime_error(fmt::format("result of {} bytes exceeds the slot of {}", result.size(),
                                           area.slot_capacity()));
    }
    area.write(rank, kDone, result);
  } catch (const Unavailable& e) {
    area.write(rank, kUnavailable, e.what());
    code = 1;
  } catch (const std::exception& e) {
    area.write(rank, kFailed, e.what());
    code = 1;
  }
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

ForkLauncher::ForkLauncher(int ranks, std::size_t max_result_bytes)
    : ranks_(ranks), max_result_bytes_(max_result_bytes) {
  if (ranks < 1) throw UsageError("fork launcher: at least one rank is needed");
}

std::vector<std::string> ForkLauncher::run(const Body& body) {
  SharedArea area(ranks_, max_result_bytes_);
  std::fflush(nullptr);  // or buffered output would be written once per child too
  const pid_t parent = getpid();
  std::vector<pid_t> children;
  auto stop_children = [&children] {
    for (pid_t c : children) {
      if (c > 0) kill(c, SIGTERM);
    }
    for (pid_t& c : children) {
      if (c > 0) waitpid(c, nullptr, 0);
      c = -1;
    }
  };
  for (int r = 0; r < ranks_; ++r) {
    const pid_t pid = fork();
    if (pid < 0) {
      const int err = errno;
      stop_children();
      throw SystemError(fmt::format("fork of device process {}", r), err);
    }
    if (pid == 0) child_main(r, ranks_, area, body, parent);
    children.push_back(pid);
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
      unavailable = state == kUnavailable;
      failure = state == kFailed || state == kUnavailable
                    ? fmt::format("device process {}: {}", rank,
                                  std::string(area.slot_data(rank), area.slot(rank)->length))
                    : fmt::format("device process {} {}", rank, describe_status(status));
      // The others would wait at the barrier for the dead one: stop them.
      stop_children();
      remaining = 0;
    }
  }
  if (unavailable) throw Unavailable(failure);
  if (!failure.empty()) throw std::runtime_error(failure);

  std::vector<std::string> results;
  for (int r = 0; r < ranks_; ++r) results.emplace_back(area.slot_data(r), area.slot(r)->length);
  return results;
}

}  // namespace xb
