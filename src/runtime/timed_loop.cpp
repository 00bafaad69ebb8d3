#include "runtime/timed_loop.hpp"

#include <stdexcept>

#include "core/clock.hpp"

namespace xb {

TimedLoopSamples run_timed_loop(const TimedLoopPlan& plan, Runtime* lineup, const std::function<void()>& submit,
                                const std::function<void()>& complete, IterationTimer* timer,
                                const std::function<void(const IterationTimes&)>& on_timed) {
  if (plan.max_over_ranks && lineup == nullptr) {
    throw std::invalid_argument("run_timed_loop: the max over ranks needs the ranks' runtime");
  }
  TimedLoopSamples s;
  if (plan.keep_samples) {
    s.submit_us.reserve(plan.iterations);
    s.complete_us.reserve(plan.iterations);
    if (timer != nullptr) s.device_us.reserve(plan.iterations);
  }
  if (timer != nullptr) s.device_method = timer->method();
  for (std::uint64_t it = 0; it < plan.warmup + plan.iterations; ++it) {
    if (lineup != nullptr) lineup->barrier();  // every rank starts the iteration together
    if (timer != nullptr) timer->begin();
    const std::uint64_t t0 = now_ns();
    submit();
    const std::uint64_t t1 = now_ns();
    // A gated timer releases the queues here: the host clock's completion includes the enqueuing
    // (it started at t0), the device's time does not.
    if (timer != nullptr) timer->end();
    complete();
    const std::uint64_t t2 = now_ns();
    IterationTimes times{ns_to_us(t1 - t0), ns_to_us(t2 - t0), timer != nullptr ? timer->elapsed_us() : 0.0};
    if (plan.max_over_ranks) {  // the warm-up's too: every rank makes the same collective calls
      times.complete_us = lineup->max(times.complete_us);
      if (timer != nullptr) times.device_us = lineup->max(times.device_us);
    }
    if (it < plan.warmup) continue;
    if (plan.keep_samples) {
      s.submit_us.push_back(times.submit_us);
      s.complete_us.push_back(times.complete_us);
      if (timer != nullptr) s.device_us.push_back(times.device_us);
    }
    if (on_timed) on_timed(times);
  }
  return s;
}

}  // namespace xb
