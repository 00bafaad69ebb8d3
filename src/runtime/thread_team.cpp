#include "runtime/thread_team.hpp"

#include <exception>
#include <thread>
#include <vector>

namespace xb {
namespace {

// body(i) on a thread of its own, what it throws kept in errors[i].
std::jthread start_thread(std::size_t i, const std::function<void(std::size_t)>& body,
                          std::vector<std::exception_ptr>& errors) {
  return std::jthread([&body, &errors, i] {
    try {
      body(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  });
}

void rethrow_first(const std::vector<std::exception_ptr>& errors) {
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace

void run_threads(std::size_t count, const std::function<void(std::size_t index)>& body,
                 const std::function<void()>& meanwhile) {
  std::vector<std::exception_ptr> errors(count + 1);
  {
    std::vector<std::jthread> threads;  // joined as it goes, also when a thread cannot start
    threads.reserve(count);
    for (std::size_t i = 0; i < count; ++i) threads.push_back(start_thread(i, body, errors));
    if (meanwhile) {
      try {
        meanwhile();
      } catch (...) {
        errors[count] = std::current_exception();
      }
    }
  }
  rethrow_first(errors);
}

void run_thread_team(std::size_t count, std::latch& start, std::atomic<bool>& stop,
                     const std::function<void(std::size_t index)>& body) {
  std::vector<std::exception_ptr> errors(count);
  {
    std::vector<std::jthread> threads;
    threads.reserve(count);
    try {
      for (std::size_t i = 0; i < count; ++i) threads.push_back(start_thread(i, body, errors));
    } catch (...) {
      // Those already started wait at `start` for the ones that never will: release them (the
      // vector joins them as it goes).
      stop = true;
      start.count_down(static_cast<std::ptrdiff_t>(count - threads.size()));
      throw;
    }
  }
  rethrow_first(errors);
}

}  // namespace xb
