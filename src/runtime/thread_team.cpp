#include "runtime/thread_team.hpp"

#include <thread>
#include <vector>

namespace xb {

void run_thread_team(std::size_t count, std::latch& start, std::atomic<bool>& stop,
                     const std::function<void(std::size_t index)>& body) {
  std::vector<std::thread> threads;
  threads.reserve(count);
  try {
    for (std::size_t i = 0; i < count; ++i) threads.emplace_back(body, i);
  } catch (...) {
    // Those already started wait at `start` for the ones that never will: release them.
    stop = true;
    start.count_down(static_cast<std::ptrdiff_t>(count - threads.size()));
    for (auto& t : threads) t.join();
    throw;
  }
  for (auto& t : threads) t.join();
}

}  // namespace xb
