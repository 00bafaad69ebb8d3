#include "runtime/forked_moved_bytes.hpp"

#include <sys/mman.h>

#include <chrono>
#include <new>
#include <system_error>

namespace xb {

// The counter is shared between processes: only a lock-free atomic is address-free there.
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

ForkedMovedBytes::ForkedMovedBytes(ProgressLine* line) {
  if (line == nullptr || !line->shows_rate()) return;
  void* map = mmap(nullptr, sizeof(std::atomic<std::uint64_t>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
  // The rate is a convenience, never a reason to fail a run: without the mapping it is not drawn.
  if (map == MAP_FAILED) return;
  line_ = line;
  counter_ = new (map) std::atomic<std::uint64_t>(0);
  try {
    relay_ = std::thread([this] { relay_loop(); });
  } catch (const std::system_error&) {
    // No thread to relay with: the mapping goes and the rate is not drawn, as without a mapping.
    munmap(map, sizeof(std::atomic<std::uint64_t>));
    counter_ = nullptr;
    line_ = nullptr;
    return;
  }
  // Returns only once the relay runs its loop, where it allocates nothing: the ranks are forked
  // next, and a fork taken while a starting thread holds the allocator's lock (AddressSanitizer's
  // does not guard against it) leaves the child's allocator locked for good (cli/progress.cpp).
  std::unique_lock lock(mutex_);
  relaying_cv_.wait(lock, [this] { return relaying_; });
}

ForkedMovedBytes::~ForkedMovedBytes() {
  if (counter_ == nullptr) return;
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  relay_.join();
  pass_on();
  munmap(counter_, sizeof(std::atomic<std::uint64_t>));
}

void ForkedMovedBytes::moved(std::uint64_t bytes) {
  if (counter_ != nullptr) counter_->fetch_add(bytes, std::memory_order_relaxed);
}

void ForkedMovedBytes::pass_on() {
  const std::uint64_t now = counter_->load(std::memory_order_relaxed);
  if (now > passed_) line_->moved(now - passed_);
  passed_ = now;
}

void ForkedMovedBytes::relay_loop() {
  std::unique_lock lock(mutex_);
  relaying_ = true;
  relaying_cv_.notify_all();
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; });
    pass_on();
  }
}

}  // namespace xb
