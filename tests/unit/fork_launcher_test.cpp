// The local launcher (src/runtime/fork_launcher.hpp): one forked process per rank, results
// gathered in rank order, a barrier shared by the processes, and failures named by rank.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "runtime/fork_launcher.hpp"
#include "runtime/forked_moved_bytes.hpp"
#include "runtime/rank_values.hpp"

namespace xb {
namespace {

// Memory every forked rank and the test process see: an anonymous MAP_SHARED mapping.
template <typename T>
class SharedMemory {
 public:
  SharedMemory() {
    void* p = mmap(nullptr, sizeof(T), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap");
    value_ = new (p) T{};
  }
  ~SharedMemory() {
    value_->~T();
    munmap(value_, sizeof(T));
  }
  T& operator*() const { return *value_; }
  T* operator->() const { return value_; }

 private:
  T* value_;
};

std::string run_error(ForkLauncher& launcher, const Launcher::Body& body) {
  try {
    launcher.run(body);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "<no exception>";
}

TEST(ForkLauncher, GathersResultsInRankOrder) {
  ForkLauncher launcher(3);
  EXPECT_EQ(launcher.ranks(), 3);
  SharedMemory<std::atomic<int>> bodies_run;
  const auto results = launcher.run([&](Runtime& rt) {
    ++*bodies_run;
    // Each rank sleeps longer the lower its rank, so they finish in reverse order.
    std::this_thread::sleep_for(std::chrono::milliseconds(20 * (3 - rt.rank())));
    return std::to_string(rt.rank()) + "/" + std::to_string(rt.size());
  });
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0], "0/3");
  EXPECT_EQ(results[1], "1/3");
  EXPECT_EQ(results[2], "2/3");
  EXPECT_EQ(bodies_run->load(), 3);
}

TEST(ForkLauncher, RanksAreSeparateProcesses) {
  ForkLauncher launcher(3);
  const auto results = launcher.run([](Runtime&) { return std::to_string(getpid()); });
  ASSERT_EQ(results.size(), 3u);
  const std::string me = std::to_string(getpid());
  EXPECT_NE(results[0], me);
  EXPECT_NE(results[0], results[1]);
  EXPECT_NE(results[1], results[2]);
  EXPECT_NE(results[0], results[2]);
}

// What a rank returns comes back whole whatever its size: no slot to outgrow (16 MiB here, far
// past the old fixed slots), binary bytes included.
TEST(ForkLauncher, EmptyLargeAndBinaryResultsComeBackWhole) {
  ForkLauncher launcher(3);
  std::string binary(256, '\0');
  for (int i = 0; i < 256; ++i) binary[static_cast<std::size_t>(i)] = static_cast<char>(i);
  const std::size_t large = std::size_t{16} << 20;
  const auto results = launcher.run([&](Runtime& rt) {
    if (rt.rank() == 0) return std::string();
    if (rt.rank() == 1) return std::string(large, 'x');
    return binary;
  });
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0], "");
  ASSERT_EQ(results[1].size(), large);
  EXPECT_EQ(results[1].find_first_not_of('x'), std::string::npos);
  EXPECT_EQ(results[2], binary);
}

// A failing rank's message comes back whole too, however long.
TEST(ForkLauncher, ALongFailureMessageIsNotCut) {
  ForkLauncher launcher(2);
  const std::string tail = "the end of a long message";
  const std::string msg = run_error(launcher, [&](Runtime& rt) -> std::string {
    if (rt.rank() == 1) throw std::runtime_error(std::string(100000, 'm') + tail);
    return "fine";
  });
  EXPECT_NE(msg.find("device process 1"), std::string::npos) << msg.substr(0, 200);
  EXPECT_NE(msg.find(tail), std::string::npos);
}

// Values cross as the type the body returned (runtime/rank_values.hpp), doubles exactly.
struct Sample {
  int rank = 0;
  std::vector<double> times;
};
void to_json(nlohmann::json& j, const Sample& s) { j = {{"rank", s.rank}, {"times", s.times}}; }
void from_json(const nlohmann::json& j, Sample& s) {
  j.at("rank").get_to(s.rank);
  j.at("times").get_to(s.times);
}

TEST(ForkLauncher, RunRanksBringsTypedValuesBackExactly) {
  ForkLauncher launcher(3);
  const std::vector<Sample> values = run_ranks(launcher, [](Runtime& rt) {
    return Sample{rt.rank(), {0.1 * rt.rank(), 1.0 / 3.0, 123456.789012345678}};
  });
  ASSERT_EQ(values.size(), 3u);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(values[static_cast<std::size_t>(r)].rank, r);
    ASSERT_EQ(values[static_cast<std::size_t>(r)].times.size(), 3u);
    EXPECT_EQ(values[static_cast<std::size_t>(r)].times[0], 0.1 * r);  // bit for bit
    EXPECT_EQ(values[static_cast<std::size_t>(r)].times[1], 1.0 / 3.0);
    EXPECT_EQ(values[static_cast<std::size_t>(r)].times[2], 123456.789012345678);
  }
}

constexpr int kRanks = 4;
struct BarrierLog {
  std::atomic<int> arrived[kRanks];
  std::atomic<int> arrivals_seen_after[kRanks];
};

TEST(ForkLauncher, BarrierLinesRanksUp) {
  ForkLauncher launcher(kRanks);
  SharedMemory<BarrierLog> log;
  for (int round = 1; round <= 3; ++round) {
    const auto results = launcher.run([&](Runtime& rt) {
      const int r = rt.rank();
      // The last rank arrives late: without a real barrier the others would pass it first.
      if (r == kRanks - 1) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      log->arrived[r].store(round);
      rt.barrier();
      int seen = 0;
      for (int i = 0; i < kRanks; ++i) seen += log->arrived[i].load() == round ? 1 : 0;
      log->arrivals_seen_after[r].store(seen);
      rt.barrier();  // and it can be used again
      return std::to_string(seen);
    });
    ASSERT_EQ(results.size(), static_cast<std::size_t>(kRanks));
    for (int r = 0; r < kRanks; ++r) {
      EXPECT_EQ(results[static_cast<std::size_t>(r)], std::to_string(kRanks)) << "round " << round << " rank " << r;
      EXPECT_EQ(log->arrivals_seen_after[r].load(), kRanks);
    }
  }
}

TEST(ForkLauncher, ThrowingRankFailsTheRunWithItsMessage) {
  ForkLauncher launcher(3);
  const std::string msg = run_error(launcher, [](Runtime& rt) -> std::string {
    if (rt.rank() == 2) throw std::runtime_error("no memory on this card");
    return "fine";
  });
  EXPECT_NE(msg.find("device process 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no memory on this card"), std::string::npos) << msg;
}

TEST(ForkLauncher, UnavailableInARankStaysUnavailable) {
  // The machine lacking something (huge pages, a device) is a waiver, not a failure, also when a
  // device process finds out.
  ForkLauncher launcher(2);
  try {
    launcher.run([](Runtime& rt) -> std::string {
      if (rt.rank() == 1) throw Unavailable("no huge pages reserved");
      return "fine";
    });
    FAIL() << "run() returned";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("device process 1: no huge pages reserved"), std::string::npos) << e.what();
  }
  // An ordinary failure is not reported as Unavailable.
  try {
    launcher.run([](Runtime&) -> std::string { throw std::runtime_error("broken"); });
    FAIL() << "run() returned";
  } catch (const Unavailable& e) {
    FAIL() << "reported as Unavailable: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("broken"), std::string::npos) << e.what();
  }
}

TEST(ForkLauncher, ThrowingRankDoesNotHangTheOthersAtTheBarrier) {
  ForkLauncher launcher(3);
  const std::string msg = run_error(launcher, [](Runtime& rt) -> std::string {
    if (rt.rank() == 0) throw std::runtime_error("rank zero gives up");
    rt.barrier();  // would wait for ever for rank 0
    return "unreachable";
  });
  EXPECT_NE(msg.find("device process 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rank zero gives up"), std::string::npos) << msg;
  // Reaching this line at all is the point: ranks 1 and 2 were stopped, not left at the barrier.
}

// The others are stopped, not killed: they leave the barrier and unwind, so what they hold (a
// device's memory, streams, the runtime's finalize) is released by its destructor.
TEST(ForkLauncher, RanksStoppedByAFailureUnwind) {
  SharedMemory<std::atomic<int>> unwound;
  ForkLauncher launcher(3);
  const std::string msg = run_error(launcher, [&](Runtime& rt) -> std::string {
    if (rt.rank() == 0) throw std::runtime_error("rank zero gives up");
    struct Held {
      std::atomic<int>& count;
      ~Held() { count.fetch_add(1); }
    } held{*unwound};
    rt.barrier();
    return "unreachable";
  });
  EXPECT_NE(msg.find("rank zero gives up"), std::string::npos) << msg;
  EXPECT_EQ(unwound->load(), 2);
}

// A signal to a rank stops the run: every rank unwinds, and the run fails naming the signal. The
// same signal twice ends the rank at once (Ctrl-C pressed again while the unwinding is stuck).
TEST(ForkLauncher, ASignalToARankStopsEveryRankAndASecondOneEndsIt) {
  SharedMemory<std::atomic<int>> unwound;
  ForkLauncher launcher(2);
  std::string msg = run_error(launcher, [&](Runtime& rt) -> std::string {
    struct Held {
      std::atomic<int>& count;
      ~Held() { count.fetch_add(1); }
    } held{*unwound};
    if (rt.rank() == 1) raise(SIGTERM);
    for (;;) rt.barrier();  // until stopped
  });
  EXPECT_NE(msg.find("interrupted by SIGTERM"), std::string::npos) << msg;
  EXPECT_EQ(unwound->load(), 2);
  ForkLauncher one(1);
  msg = run_error(one, [&](Runtime& rt) -> std::string {
    raise(SIGINT);
    raise(SIGINT);
    for (;;) rt.barrier();
  });
  EXPECT_NE(msg.find("device process 0 was killed by signal " + std::to_string(SIGINT)), std::string::npos) << msg;
}

TEST(ForkLauncher, RankKilledBySignalIsNamedWithTheSignal) {
  ForkLauncher launcher(3);
  const std::string msg = run_error(launcher, [](Runtime& rt) -> std::string {
    if (rt.rank() == 1) raise(SIGKILL);
    rt.barrier();  // ranks 0 and 2 wait here for rank 1, which is dead
    return "unreachable";
  });
  EXPECT_NE(msg.find("device process 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("signal " + std::to_string(SIGKILL)), std::string::npos) << msg;
  EXPECT_NE(msg.find(strsignal(SIGKILL)), std::string::npos) << msg;
}

TEST(ForkLauncher, RankThatExitsWithoutAResultIsNamed) {
  ForkLauncher launcher(2);
  const std::string msg = run_error(launcher, [](Runtime& rt) -> std::string {
    if (rt.rank() == 1) _exit(7);
    rt.barrier();
    return "unreachable";
  });
  EXPECT_NE(msg.find("device process 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("code 7"), std::string::npos) << msg;
}

TEST(ForkLauncher, LauncherIsReusableAfterAFailure) {
  ForkLauncher launcher(2);
  EXPECT_THROW(launcher.run([](Runtime&) -> std::string { throw std::runtime_error("x"); }), std::runtime_error);
  const auto results = launcher.run([](Runtime& rt) { return std::to_string(rt.rank() * 10); });
  EXPECT_EQ(results, (std::vector<std::string>{"0", "10"}));
}

TEST(ForkLauncher, NeedsAtLeastOneRank) {
  EXPECT_THROW(ForkLauncher(0), UsageError);
  EXPECT_THROW(ForkLauncher(-2), UsageError);
  ForkLauncher one(1);
  EXPECT_EQ(one.run([](Runtime& rt) { rt.barrier(); return std::string("solo"); }),
            (std::vector<std::string>{"solo"}));
}

// A progress line that records what it hears (the live rate's bytes), from the relay's thread.
class MovedRecorder final : public ProgressLine {
 public:
  explicit MovedRecorder(bool rate) : rate_(rate) {}
  void begin(std::string /*text*/) override {}
  void end() override {}
  void moved(std::uint64_t bytes) override {
    const std::lock_guard lock(mutex_);
    total_ += bytes;
    ++calls_;
  }
  bool shows_rate() const override { return rate_; }
  std::uint64_t total() {
    const std::lock_guard lock(mutex_);
    return total_;
  }
  int calls() {
    const std::lock_guard lock(mutex_);
    return calls_;
  }

 private:
  bool rate_;
  std::mutex mutex_;
  std::uint64_t total_ = 0;
  int calls_ = 0;
};

// The live rate of forked ranks (issue 18 item 7): what each rank process moves reaches the
// parent's line, every byte of it, while they run and the rest when the relay ends.
TEST(ForkedMovedBytes, EveryRanksBytesReachTheParentsLine) {
  MovedRecorder line(true);
  {
    ForkedMovedBytes rate(&line);
    ProgressLine* ranks_line = rate.for_ranks();
    ASSERT_NE(ranks_line, nullptr);
    ForkLauncher launcher(3);
    launcher.run([&](Runtime& rt) {
      const auto per_add = static_cast<std::uint64_t>(1000 + rt.rank());
      for (int i = 0; i < 500; ++i) ranks_line->moved(per_add);
      return std::string();
    });
    // The relay passes it on while it lives (every 100 ms), not only in its destructor: waited
    // for, up to a bound far past any scheduling delay.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (line.total() < 500u * (1000 + 1001 + 1002) && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(line.total(), 500u * (1000 + 1001 + 1002));
  }
  EXPECT_EQ(line.total(), 500u * (1000 + 1001 + 1002));
}

// Each pass hands on what was added since the one before, never the whole count again: the rate
// drawn is of the last tick's bytes. Added from this process between passes, each waited for.
TEST(ForkedMovedBytes, EachPassHandsOnWhatWasAddedSinceTheLast) {
  MovedRecorder line(true);
  ForkedMovedBytes rate(&line);
  const auto wait_for_total = [&](std::uint64_t total) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (line.total() < total && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // A few passes more: a pass that handed on the whole count again would overshoot here.
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    return line.total();
  };
  rate.moved(1000);
  EXPECT_EQ(wait_for_total(1000), 1000u);
  rate.moved(24);
  EXPECT_EQ(wait_for_total(1024), 1024u);
}

// Nobody draws a rate (off a terminal, -q, JSON): no mapping, no thread, nothing handed to ranks.
TEST(ForkedMovedBytes, InertWhenTheLineShowsNoRate) {
  MovedRecorder line(false);
  {
    ForkedMovedBytes rate(&line);
    EXPECT_EQ(rate.for_ranks(), nullptr);
    EXPECT_FALSE(rate.shows_rate());
    rate.moved(4096);
  }
  EXPECT_EQ(line.calls(), 0);
  ForkedMovedBytes nobody(nullptr);
  EXPECT_EQ(nobody.for_ranks(), nullptr);
}

}  // namespace
}  // namespace xb
