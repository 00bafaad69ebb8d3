// The local launcher (src/runtime/fork_launcher.hpp): one forked process per rank, results
// gathered in rank order, a barrier shared by the processes, and failures named by rank.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/error.hpp"
#include "runtime/fork_launcher.hpp"

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
  ForkLauncher launcher(3, 64);
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
  ForkLauncher launcher(3, 32);
  const auto results = launcher.run([](Runtime&) { return std::to_string(getpid()); });
  ASSERT_EQ(results.size(), 3u);
  const std::string me = std::to_string(getpid());
  EXPECT_NE(results[0], me);
  EXPECT_NE(results[0], results[1]);
  EXPECT_NE(results[1], results[2]);
  EXPECT_NE(results[0], results[2]);
}

TEST(ForkLauncher, EmptyAndMaximalResults) {
  ForkLauncher launcher(2, 100);
  const auto results = launcher.run([](Runtime& rt) { return rt.rank() == 0 ? std::string() : std::string(100, 'x'); });
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0], "");
  EXPECT_EQ(results[1], std::string(100, 'x'));
}

TEST(ForkLauncher, ResultLargerThanTheSlotFailsTheRun) {
  // (The slot also carries a failing rank's message, so it must be large enough to hold this one.)
  ForkLauncher launcher(2, 64);
  const std::string msg = run_error(launcher, [](Runtime& rt) { return std::string(rt.rank() == 1 ? 65 : 64, 'y'); });
  EXPECT_NE(msg.find("device process 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("65 bytes exceeds"), std::string::npos) << msg;
}

constexpr int kRanks = 4;
struct BarrierLog {
  std::atomic<int> arrived[kRanks];
  std::atomic<int> arrivals_seen_after[kRanks];
};

TEST(ForkLauncher, BarrierLinesRanksUp) {
  ForkLauncher launcher(kRanks, 64);
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
  ForkLauncher launcher(3, 64);
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
  ForkLauncher launcher(2, 64);
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
  ForkLauncher launcher(3, 64);
  const std::string msg = run_error(launcher, [](Runtime& rt) -> std::string {
    if (rt.rank() == 0) throw std::runtime_error("rank zero gives up");
    rt.barrier();  // would wait for ever for rank 0
    return "unreachable";
  });
  EXPECT_NE(msg.find("device process 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rank zero gives up"), std::string::npos) << msg;
  // Reaching this line at all is the point: ranks 1 and 2 were stopped, not left at the barrier.
}

TEST(ForkLauncher, RankKilledBySignalIsNamedWithTheSignal) {
  ForkLauncher launcher(3, 64);
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
  ForkLauncher launcher(2, 64);
  const std::string msg = run_error(launcher, [](Runtime& rt) -> std::string {
    if (rt.rank() == 1) _exit(7);
    rt.barrier();
    return "unreachable";
  });
  EXPECT_NE(msg.find("device process 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("code 7"), std::string::npos) << msg;
}

TEST(ForkLauncher, LauncherIsReusableAfterAFailure) {
  ForkLauncher launcher(2, 16);
  EXPECT_THROW(launcher.run([](Runtime&) -> std::string { throw std::runtime_error("x"); }), std::runtime_error);
  const auto results = launcher.run([](Runtime& rt) { return std::to_string(rt.rank() * 10); });
  EXPECT_EQ(results, (std::vector<std::string>{"0", "10"}));
}

TEST(ForkLauncher, NeedsAtLeastOneRank) {
  EXPECT_THROW(ForkLauncher(0, 16), UsageError);
  EXPECT_THROW(ForkLauncher(-2, 16), UsageError);
  ForkLauncher one(1, 16);
  EXPECT_EQ(one.run([](Runtime& rt) { rt.barrier(); return std::string("solo"); }),
            (std::vector<std::string>{"solo"}));
}

}  // namespace
}  // namespace xb
