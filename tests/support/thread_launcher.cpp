#include "support/thread_launcher.hpp"

#include <fmt/format.h>

#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/error.hpp"

namespace xb {
namespace {

// What the rank threads share: a barrier that can be broken (a failed rank breaks it, so the
// others stop waiting) and one exchange slot per rank.
class ThreadShared {
 public:
  explicit ThreadShared(int ranks) : ranks_(ranks), slots_(static_cast<std::size_t>(ranks)) {}

  void barrier() {
    std::unique_lock lock(mutex_);
    if (broken_) throw std::runtime_error("thread runtime: another rank failed");
    const std::uint64_t generation = generation_;
    if (++arrived_ == ranks_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return generation_ != generation || broken_; });
    if (generation_ == generation) throw std::runtime_error("thread runtime: another rank failed");
  }
  void breaks() {
    std::lock_guard lock(mutex_);
    broken_ = true;
    changed_.notify_all();
  }
  std::string& slot(int r) { return slots_[static_cast<std::size_t>(r)]; }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int ranks_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  bool broken_ = false;
  std::vector<std::string> slots_;
};

class ThreadRuntime final : public Runtime {
 public:
  ThreadRuntime(int rank, int size, ThreadShared& shared) : rank_(rank), size_(size), shared_(shared) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string_view name() const override { return "threads"; }
  void barrier() override { shared_.barrier(); }
  std::vector<std::string> allgather(const std::string& mine) override {
    shared_.slot(rank_) = mine;
    barrier();  // every slot written (the barrier's mutex orders the writes before the reads)
    std::vector<std::string> all;
    all.reserve(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) all.push_back(shared_.slot(r));
    barrier();  // every slot read before any rank writes its next one
    return all;
  }

 private:
  int rank_;
  int size_;
  ThreadShared& shared_;
};

}  // namespace

ThreadLauncher::ThreadLauncher(int ranks) : ranks_(ranks) {
  if (ranks < 1) throw UsageError("thread launcher: at least one rank is needed");
}

std::vector<std::string> ThreadLauncher::run(const Body& body) {
  ThreadShared shared(ranks_);
  std::vector<std::string> results(static_cast<std::size_t>(ranks_));
  std::mutex failure_mutex;
  int failed_rank = -1;
  std::exception_ptr failure;
  auto rank_main = [&](int rank) {
    try {
      ThreadRuntime rt(rank, ranks_, shared);
      results[static_cast<std::size_t>(rank)] = body(rt);
    } catch (...) {
      {
        std::lock_guard lock(failure_mutex);
        // The first failure is the cause; the others' "another rank failed" follow from it.
        if (!failure) {
          failure = std::current_exception();
          failed_rank = rank;
        }
      }
      shared.breaks();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(ranks_));
  try {
    for (int r = 0; r < ranks_; ++r) threads.emplace_back(rank_main, r);
  } catch (const std::system_error& e) {
    shared.breaks();  // the started ranks would wait for the one that never came
    for (auto& t : threads) t.join();
    throw SystemError(fmt::format("thread of rank {}", threads.size()), e.code().value());
  }
  for (auto& t : threads) t.join();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const Unavailable& e) {
      throw Unavailable(fmt::format("rank {}: {}", failed_rank, e.what()));
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("rank {}: {}", failed_rank, e.what()));
    } catch (...) {
      throw std::runtime_error(fmt::format("rank {}: an exception that is not a std::exception", failed_rank));
    }
  }
  return results;
}

}  // namespace xb
