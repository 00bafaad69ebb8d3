#pragma once
// The live rate of ranks that run as forked processes (copy's one process per device): each rank
// adds the bytes it moves to a counter in an anonymous shared mapping, made before the fork so
// every rank maps it (nothing in /dev/shm); a thread of the parent passes what was added on to the
// parent's progress line every 100 ms, and the rest when it stops. A thread's atomic add on a
// ProgressLine of the parent would be lost in a child: the child's copy of the line is not drawn.
//
// The ranks see it as a ProgressLine of their own whose only working calls are moved() and
// shows_rate(): the step and its text are the parent's. Inert (no mapping, no thread) when the
// parent's line draws no rate: off a terminal, -q, JSON.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "core/progress_line.hpp"

namespace xb {

class ForkedMovedBytes final : public ProgressLine {
 public:
  // `line` may be null (nobody watches).
  explicit ForkedMovedBytes(ProgressLine* line);
  // Stops the relay and passes the rest on (in the process that made it; a forked rank leaves
  // with _exit and never runs it).
  ~ForkedMovedBytes() override;
  ForkedMovedBytes(const ForkedMovedBytes&) = delete;
  ForkedMovedBytes& operator=(const ForkedMovedBytes&) = delete;

  void begin(std::string /*text*/) override {}
  void end() override {}
  // From any rank, process or thread: one relaxed add to the shared counter.
  void moved(std::uint64_t bytes) override;
  bool shows_rate() const override { return counter_ != nullptr; }
  // What the ranks are handed: this, or null when inert (so they pass nothing at all).
  ProgressLine* for_ranks() { return counter_ != nullptr ? this : nullptr; }

 private:
  void relay_loop();
  void pass_on();

  ProgressLine* line_ = nullptr;
  std::atomic<std::uint64_t>* counter_ = nullptr;  // in the shared mapping; null when inert
  std::uint64_t passed_ = 0;                        // of *counter_, already passed to line_
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool relaying_ = false;  // the relay has reached its loop (the constructor waits for it)
  std::condition_variable relaying_cv_;
  std::thread relay_;
};

}  // namespace xb
