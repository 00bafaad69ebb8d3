#include "runtime/thread_team.hpp"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace xb {
namespace {

// The first error the threads threw, in time.
class FirstError {
 public:
  void keep(std::exception_ptr e) {
    const std::lock_guard lock(mutex_);
    if (!first_) first_ = std::move(e);
  }
  // Once every thread is joined.
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
};

// body(i) on a thread of its own, what it throws kept.
std::jthread start_thread(std::size_t i, const std::function<void(std::size_t)>& body, FirstError& error) {
  return std::jthread([&body, &error, i] {
    try {
      body(i);
    } catch (...) {
      error.keep(std::current_exception());
    }
  });
}

}  // namespace

void run_threads(std::size_t count, const std::function<void(std::size_t index)>& body,
                 const std::function<void()>& meanwhile) {
  FirstError error;
  {
    std::vector<std::jthread> threads;  // joined as it goes, also when a thread cannot start
    threads.reserve(count);
    for (std::size_t i = 0; i < count; ++i) threads.push_back(start_thread(i, body, error));
    if (meanwhile) {
      try {
        meanwhile();
      } catch (...) {
        error.keep(std::current_exception());
      }
    }
  }
  error.rethrow();
}

void run_thread_team(std::size_t count, std::latch& start, std::atomic<bool>& stop,
                     const std::function<void(std::size_t index)>& body) {
  FirstError error;
  {
    std::vector<std::jthread> threads;
    threads.reserve(count);
    try {
      for (std::size_t i = 0; i < count; ++i) threads.push_back(start_thread(i, body, error));
    } catch (...) {
      // Those already started wait at `start` for the ones that never will: release them (the
      // vector joins them as it goes).
      stop = true;
      start.count_down(static_cast<std::ptrdiff_t>(count - threads.size()));
      throw;
    }
  }
  error.rethrow();
}

}  // namespace xb
