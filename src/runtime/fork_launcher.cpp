#include "runtime/fork_launcher.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/error.hpp"
#include "core/unique_fd.hpp"

namespace xb {
namespace {

// kUnavailable: the rank threw Unavailable (the machine lacks what it needs), which run() throws
// again as Unavailable so that the case is waived, not failed.
// kResultLost: the rank ended but could not write its text (errno in SlotHeader::error).
enum SlotState : std::uint32_t { kPending = 0, kDone = 1, kFailed = 2, kUnavailable = 3, kResultLost = 4 };

struct SharedHeader {
  pthread_barrier_t barrier;
};

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

[[noreturn]] void child_main(int rank, int ranks, const SharedArea& area, const ResultFile& out,
                             const Launcher::Body& body, pid_t parent) {
  // Die with the parent: an orphaned rank would hold memory and wait at the barrier for ever.
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
  std::vector<ResultFile> results_of;
  results_of.reserve(static_cast<std::size_t>(ranks_));
  for (int r = 0; r < ranks_; ++r) results_of.emplace_back(r);
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
    if (pid == 0) child_main(r, ranks_, area, results_of[static_cast<std::size_t>(r)], body, parent);
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
