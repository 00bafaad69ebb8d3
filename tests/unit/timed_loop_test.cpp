// The one timed loop (src/runtime/timed_loop.hpp) and the device's clock under it
// (src/backends/stream_clock.hpp): warm-up discarded, the timer bracketing exactly the enqueuing,
// the max over ranks, samples kept or streamed, and the gate holding a stream until everything is
// queued.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/stream_clock.hpp"
#include "support/wrapped_cpu_backend.hpp"
#include "support/thread_launcher.hpp"
#include "runtime/timed_loop.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

// A timer that writes down when it is called, among the work's own calls.
class RecordingTimer final : public IterationTimer {
 public:
  explicit RecordingTimer(std::vector<std::string>& log) : log_(log) {}
  void begin() override { log_.push_back("begin"); }
  void end() override { log_.push_back("end"); }
  double elapsed_us() override { return ++reads_ * 10.0; }
  std::string method() const override { return "recording"; }

 private:
  std::vector<std::string>& log_;
  int reads_ = 0;
};

TEST(TimedLoop, WarmUpIsDiscardedAndTheTimerBracketsTheEnqueuing) {
  std::vector<std::string> log;
  RecordingTimer timer(log);
  int timed = 0, warmups = 0;
  const TimedLoopSamples s = run_timed_loop(
      {.warmup = 2, .iterations = 3}, nullptr, [&] { log.push_back("submit"); }, [&] { log.push_back("complete"); },
      &timer, [&](const IterationTimes& t) {
        // Every iteration is seen, the warm-ups first and marked as such.
        if (t.warmup) {
          EXPECT_EQ(timed, 0);
          ++warmups;
        } else {
          ++timed;
        }
      });
  EXPECT_EQ(s.submit_us.size(), 3u);
  EXPECT_EQ(s.complete_us.size(), 3u);
  // The device's figure of the timed iterations only: reads 3, 4, 5 (the warm-up's were 1, 2).
  EXPECT_EQ(s.device_us, (std::vector<double>{30.0, 40.0, 50.0}));
  EXPECT_EQ(s.device_method, "recording");
  EXPECT_EQ(timed, 3);
  EXPECT_EQ(warmups, 2);
  ASSERT_EQ(log.size(), 20u);
  for (std::size_t i = 0; i < log.size(); i += 4) {
    EXPECT_EQ((std::vector<std::string>(log.begin() + static_cast<long>(i), log.begin() + static_cast<long>(i) + 4)),
              (std::vector<std::string>{"begin", "submit", "end", "complete"}));
  }
  for (std::size_t i = 0; i < 3; ++i) EXPECT_GE(s.complete_us[i], s.submit_us[i]);
}

TEST(TimedLoop, EachIterationLastsUntilTheSlowestRank) {
  ThreadLauncher launcher(2);
  const auto results = launcher.run([](Runtime& rt) {
    std::vector<double> streamed;
    const TimedLoopSamples s = run_timed_loop(
        {.warmup = 1, .iterations = 3, .max_over_ranks = true, .keep_samples = false}, &rt, [] {},
        [&] {
          if (rt.rank() == 1) std::this_thread::sleep_for(20ms);  // the slow side
        },
        nullptr, [&](const IterationTimes& t) {
          if (!t.warmup) streamed.push_back(t.complete_us);
        });
    std::string wrong;
    if (!s.complete_us.empty()) wrong += "samples kept; ";
    if (streamed.size() != 3) wrong += "not 3 streamed; ";
    for (double us : streamed) {
      if (us < 20000) wrong += "rank " + std::to_string(rt.rank()) + " took " + std::to_string(us) + " us; ";
    }
    return wrong;
  });
  EXPECT_EQ(results[0], "");
  EXPECT_EQ(results[1], "");
  EXPECT_THROW(run_timed_loop({.max_over_ranks = true}, nullptr, [] {}, [] {}), std::invalid_argument);
}

// Back to back, an iteration's clock starts where the previous one stopped: what the loop does
// between iterations (here a 2 ms spin in on_iteration, measured on the same clock) counts in the
// next sample, never in none. It takes no lineup, timer or submit time.
TEST(TimedLoop, BackToBackCountsWhatLiesBetweenIterationsInTheNext) {
  constexpr double kGapUs = 2000;
  const auto spin = [](const IterationTimes&) {
    const std::uint64_t until = now_ns() + static_cast<std::uint64_t>(kGapUs * 1000);
    while (now_ns() < until) {
    }
  };
  const auto samples = run_timed_loop({.warmup = 1, .iterations = 4, .submit_time = false, .back_to_back = true},
                                      nullptr, [] {}, [] {}, nullptr, spin);
  ASSERT_EQ(samples.complete_us.size(), 4u);
  for (const double us : samples.complete_us) EXPECT_GE(us, kGapUs) << "the gap before it is in the sample";
  EXPECT_THROW(run_timed_loop({.iterations = 1, .submit_time = true, .back_to_back = true}, nullptr, [] {}, [] {}),
               std::invalid_argument);
}

TEST(StreamClock, TheGateHoldsTheStreamUntilEverythingIsQueued) {
  auto cpu = make_cpu_backend();
  auto dev = cpu->open_device(0);
  auto src = dev->allocate(1 << 20);
  auto dst = dev->allocate(1 << 20);
  std::memset(src->data(), 0x5a, 1 << 20);
  std::memset(dst->data(), 0, 1 << 20);
  auto stream = dev->create_stream("memcpy");
  Stream* streams[] = {stream.get()};
  StreamClock clock(*dev, streams);
  ASSERT_TRUE(clock.gated());
  EXPECT_EQ(clock.method(), "device events, gated");
  clock.begin();
  stream->copy({dst->data(), src->data(), 1 << 20});
  std::this_thread::sleep_for(50ms);  // ample time for an unheld stream to copy 1 MiB
  EXPECT_EQ(static_cast<unsigned char*>(dst->data())[0], 0) << "the copy ran before the gate opened";
  const auto opened = std::chrono::steady_clock::now();
  clock.end();
  stream->synchronize();
  const double host_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - opened).count();
  EXPECT_EQ(static_cast<unsigned char*>(dst->data())[(1 << 20) - 1], 0x5a);
  const double device_us = clock.elapsed_us();
  EXPECT_GT(device_us, 0.0);
  // Not a timing expectation but an order: the start mark passed only once the gate opened, so the
  // device's figure lies within what the host saw after opening it (the held 50 ms are not in it).
  EXPECT_LE(device_us, host_us + 1.0);
}

// A gate that went on before it was opened (the CUDA gate's bound) makes the iteration's reading an
// error: its device time would include the enqueuing the gate is there to leave out.
TEST(StreamClock, AGateThatGaveUpMakesTheReadingAnError) {
  test::CpuWrap wrap;
  wrap.gate = [](std::unique_ptr<Gate> real) -> std::unique_ptr<Gate> {
    return std::make_unique<test::GaveUpGate>(std::move(real), "gave up");
  };
  const auto backend = test::make_wrapped_cpu_backend(std::move(wrap));
  auto dev = backend->open_device(0);
  auto stream = dev->create_stream("memcpy");
  auto src = dev->allocate(1 << 16);
  auto dst = dev->allocate(1 << 16);
  Stream* streams[] = {stream.get()};
  StreamClock clock(*dev, streams);
  ASSERT_TRUE(clock.gated());
  clock.begin();
  stream->copy({dst->data(), src->data(), 1 << 16});
  clock.end();
  stream->synchronize();
  EXPECT_THROW(clock.elapsed_us(), std::runtime_error);
}

TEST(StreamClock, UngatedItSaysSoAndSpansEveryStream) {
  auto cpu = make_cpu_backend();
  auto dev = cpu->open_device(0);
  auto a = dev->create_stream("memcpy");
  auto b = dev->create_stream("memcpy");
  auto src = dev->allocate(4 << 20);
  auto dst = dev->allocate(4 << 20);
  Stream* streams[] = {a.get(), b.get()};
  StreamClock clock(*dev, streams, false);
  EXPECT_FALSE(clock.gated());
  EXPECT_EQ(clock.method(), "device events, ungated");
  clock.begin();
  a->copy({dst->data(), src->data(), 1 << 20});
  b->copy({static_cast<std::byte*>(dst->data()) + (1 << 20), static_cast<std::byte*>(src->data()) + (1 << 20), 3 << 20});
  clock.end();
  a->synchronize();
  b->synchronize();
  EXPECT_GT(clock.elapsed_us(), 0.0);
}

}  // namespace
}  // namespace xb
