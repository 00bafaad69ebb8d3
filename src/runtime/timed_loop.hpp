#pragma once
// The one timed loop under the jobs that repeat a transfer (copy today; p2p's windows use the
// same gate; link, xfer and fleet next: docs/method.md): warm-up iterations first, run exactly as
// timed ones and discarded; every rank lined up before each iteration (the runtime's barrier);
// per iteration the submit time (first enqueue to the return of the last) and the completion time
// (first enqueue until all of it is done) on the host's monotonic clock, and, where the work's
// queues carry events (an IterationTimer), the device's own time of it. Every sample is kept (or,
// for runs of millions of iterations, handed to a callback one by one); the max over ranks is
// either the loop's (each iteration's completion time is the slowest rank's: a two-sided transfer
// ends when both sides are done) or the caller's, from every rank's samples.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/iteration_timer.hpp"
#include "runtime/runtime.hpp"

namespace xb {

struct TimedLoopPlan {
  std::uint64_t warmup = 0;
  std::uint64_t iterations = 1;
  // Each iteration's completion (and device) time is the largest over the ranks (a collective per
  // iteration, after the work: every rank calls the loop, idle ones with no-op work).
  bool max_over_ranks = false;
  // Keep every timed sample in the result; off, each goes only to the callback.
  bool keep_samples = true;
};

// One timed iteration's times, as the loop hands them to a callback.
struct IterationTimes {
  double submit_us = 0;
  double complete_us = 0;
  double device_us = 0;  // 0 without a timer
};

struct TimedLoopSamples {
  std::vector<double> submit_us;    // first enqueue to the last enqueue's return (host clock)
  std::vector<double> complete_us;  // first enqueue to all of it done (host clock)
  std::vector<double> device_us;    // the device's time (empty without a timer)
  std::string device_method;        // the timer's method ("" without one)
};

// `submit` enqueues one iteration's work without waiting; `complete` waits until it is done.
// `lineup` (may be null: one rank) lines the ranks up before each iteration; `timer` (may be null)
// brackets the enqueuing (begin before `submit`, end after it) and is read after `complete`.
// `on_timed` (may be empty) sees every timed iteration's times as the loop goes.
TimedLoopSamples run_timed_loop(const TimedLoopPlan& plan, Runtime* lineup, const std::function<void()>& submit,
                                const std::function<void()>& complete, IterationTimer* timer = nullptr,
                                const std::function<void(const IterationTimes&)>& on_timed = {});

}  // namespace xb
