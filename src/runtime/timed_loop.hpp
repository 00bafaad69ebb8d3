#pragma once
// The one timed loop under the jobs that repeat a transfer (copy, link, xfer, fleet, p2p across
// nodes, and p2p within a node, whose iterations are windows of executions timed by their own
// events): warm-up iterations first, run exactly as timed ones and discarded; every rank lined up
// before each iteration (the runtime's barrier); per iteration the submit time (first enqueue to
// the return of the last) and the completion time (first enqueue until all of it is done) on the
// host's monotonic clock, and, where the work's queues carry events (an IterationTimer), the
// device's own time of it. Every sample is kept (or,
// for runs of millions of iterations, handed to a callback one by one); the max over ranks is
// either the loop's (each iteration's completion time is the slowest rank's: a two-sided transfer
// ends when both sides are done) or the caller's, from every rank's samples.
//
// A template over the work's callables, so a put + flush of 140 ns (UCX over shared memory) pays
// for no indirect call and no clock read it does not need (submit_time off: one clock read fewer).
#include <cstdint>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "core/clock.hpp"
#include "core/iteration_timer.hpp"
#include "core/stop.hpp"
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
  // Read the clock between submit and complete (the submit time); off where nobody reports it.
  bool submit_time = true;
  // Checked before each iteration: set, the loop throws Interrupted (core/stop.hpp) and the job
  // unwinds. Default: never.
  std::stop_token stop{};
  // Each iteration's clock starts where the previous one's stopped: one clock read an iteration,
  // not two, where a read (29 ns here) is a fifth of the work (a ping-pong round over shared
  // memory); the loop's bookkeeping between iterations counts in the next. Not with a lineup, a
  // timer or the submit time, which need the clock read at the iteration's start.
  bool back_to_back = false;
};

// One timed iteration's times, as the loop hands them to a callback.
struct IterationTimes {
  double submit_us = 0;  // 0 with submit_time off
  double complete_us = 0;
  double device_us = 0;  // 0 without a timer
  bool warmup = false;   // a warm-up iteration: not among the samples
};

struct TimedLoopSamples {
  std::vector<double> submit_us;    // first enqueue to the last enqueue's return (host clock)
  std::vector<double> complete_us;  // first enqueue to all of it done (host clock)
  std::vector<double> device_us;    // the device's time (empty without a timer)
  std::string device_method;        // the timer's method ("" without one)
};

struct IgnoreTimes {
  void operator()(const IterationTimes& /*t*/) const {}
};

// `submit` enqueues one iteration's work without waiting; `complete` waits until it is done.
// `lineup` (may be null: one rank) lines the ranks up before each iteration; `timer` (may be null)
// brackets the enqueuing (begin before `submit`, end after it) and is read after `complete`;
// `on_iteration` sees every iteration's times as the loop goes, outside the clock (after its end),
// warm-ups included and marked: progress counts their bytes, figures take only the timed ones.
template <typename Submit, typename Complete, typename OnIteration = IgnoreTimes>
TimedLoopSamples run_timed_loop(const TimedLoopPlan& plan, Runtime* lineup, Submit&& submit, Complete&& complete,
                                IterationTimer* timer = nullptr, OnIteration&& on_iteration = {}) {
  if (plan.max_over_ranks && lineup == nullptr) {
    throw std::invalid_argument("run_timed_loop: the max over ranks needs the ranks' runtime");
  }
  if (plan.back_to_back && (lineup != nullptr || timer != nullptr || plan.submit_time)) {
    throw std::invalid_argument("run_timed_loop: back to back iterations take no lineup, timer or submit time");
  }
  std::uint64_t last_end = 0;  // back to back: where the next iteration's clock starts
  TimedLoopSamples s;
  if (plan.keep_samples) {
    if (plan.submit_time) s.submit_us.reserve(plan.iterations);
    s.complete_us.reserve(plan.iterations);
    if (timer != nullptr) s.device_us.reserve(plan.iterations);
  }
  if (timer != nullptr) s.device_method = timer->method();
  for (std::uint64_t it = 0; it < plan.warmup + plan.iterations; ++it) {
    stop_here_if_asked(plan.stop);
    if (lineup != nullptr) lineup->barrier();  // every rank starts the iteration together
    if (timer != nullptr) timer->begin();
    const std::uint64_t t0 = plan.back_to_back && it > 0 ? last_end : now_ns();
    submit();
    const std::uint64_t t1 = plan.submit_time ? now_ns() : t0;
    // A gated timer releases the queues here: the host clock's completion includes the enqueuing
    // (it started at t0), the device's time does not.
    if (timer != nullptr) timer->end();
    complete();
    const std::uint64_t t2 = now_ns();
    last_end = t2;
    IterationTimes times{ns_to_us(t1 - t0), ns_to_us(t2 - t0), timer != nullptr ? timer->elapsed_us() : 0.0,
                         it < plan.warmup};
    // The warm-up's too: every rank makes the same collective calls (lineup was checked above).
    if (plan.max_over_ranks && lineup != nullptr) {
      times.complete_us = lineup->max(times.complete_us);
      if (timer != nullptr) times.device_us = lineup->max(times.device_us);
    }
    if (!times.warmup && plan.keep_samples) {
      if (plan.submit_time) s.submit_us.push_back(times.submit_us);
      s.complete_us.push_back(times.complete_us);
      if (timer != nullptr) s.device_us.push_back(times.device_us);
    }
    on_iteration(times);
  }
  return s;
}

}  // namespace xb
