// The one Runtime (src/runtime/runtime.hpp) and each implementation of it: forked processes,
// threads, a TCP pair over loopback and the shared directory. The same body runs on each: every
// collective's answer is checked at every rank (allgather in rank order, gather only at its root,
// broadcast from a root other than 0, max exact to the bit), and the barrier holds every rank until
// the last arrives.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <future>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "runtime/fork_launcher.hpp"
#include "runtime/session_token.hpp"
#include "runtime/shared_dir_runtime.hpp"
#include "runtime/tcp_pair_runtime.hpp"
#include "runtime/thread_team.hpp"
#include "support/thread_launcher.hpp"
#include "support/shared_dir.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

// Every collective at once; what goes wrong is returned (empty: all right), so a forked rank can
// report it through the launcher.
std::string check_collectives(Runtime& rt) {
  const int me = rt.rank(), n = rt.size();
  std::string wrong;
  const auto expect = [&](bool ok, const std::string& what) {
    if (!ok) wrong += "rank " + std::to_string(me) + ": " + what + "; ";
  };
  // allgather: every rank's string, in rank order, at every rank (sizes differ per rank).
  const std::vector<std::string> all = rt.allgather(std::string(static_cast<std::size_t>(me) * 3, 'a' + me));
  expect(all.size() == static_cast<std::size_t>(n), "allgather size");
  for (int r = 0; r < n && r < static_cast<int>(all.size()); ++r) {
    expect(all[static_cast<std::size_t>(r)] == std::string(static_cast<std::size_t>(r) * 3, 'a' + r),
           "allgather entry " + std::to_string(r));
  }
  // gather to the last rank: everything there, nothing elsewhere.
  const int last = n - 1;
  const std::vector<std::string> gathered = rt.gather("g" + std::to_string(me), last);
  if (me == last) {
    expect(gathered.size() == static_cast<std::size_t>(n), "gather size at root");
    for (int r = 0; r < n && r < static_cast<int>(gathered.size()); ++r) {
      expect(gathered[static_cast<std::size_t>(r)] == "g" + std::to_string(r), "gather entry");
    }
  } else {
    expect(gathered.empty(), "gather not empty off the root");
  }
  // broadcast from the last rank: its text everywhere, whatever the others passed.
  expect(rt.broadcast(me == last ? "from the last" : "ignored", last) == "from the last", "broadcast");
  // max: exact (a value text formatting with few digits would round), and negatives.
  const double mine = me == 0 ? 0.1 + 0.2 : -1.0 * me;
  expect(rt.max(mine) == 0.1 + 0.2, "max exact");
  expect(rt.max(-1e300 - me) == -1e300, "max of negatives");
  expect(rt.max(me == last ? std::numeric_limits<double>::infinity() : 1.0) == std::numeric_limits<double>::infinity(),
         "max infinity");
  return wrong;
}

// The barrier releases no rank before the last arrives: each rank counts itself in (memory every
// process sees), the last arrives late, and every rank reads the full count after the barrier.
std::string check_barrier(Runtime& rt, std::atomic<int>& arrived) {
  if (rt.rank() == rt.size() - 1) std::this_thread::sleep_for(50ms);
  arrived.fetch_add(1);
  rt.barrier();
  const int seen = arrived.load();
  rt.barrier();  // nobody counts in again before all have read
  return seen == rt.size() ? "" : "rank " + std::to_string(rt.rank()) + " passed the barrier at " + std::to_string(seen);
}

// An atomic in memory the forked ranks share.
class SharedCounter {
 public:
  SharedCounter() {
    void* p = mmap(nullptr, sizeof(std::atomic<int>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap");
    counter_ = new (p) std::atomic<int>(0);
  }
  ~SharedCounter() { munmap(counter_, sizeof(std::atomic<int>)); }
  std::atomic<int>& get() { return *counter_; }

 private:
  std::atomic<int>* counter_;
};

void expect_every_rank_right(Launcher& launcher) {
  SharedCounter arrived;
  const std::vector<std::string> results = launcher.run([&](Runtime& rt) {
    std::string wrong = check_collectives(rt);
    wrong += check_barrier(rt, arrived.get());
    return wrong;
  });
  ASSERT_EQ(results.size(), static_cast<std::size_t>(launcher.ranks()));
  for (const std::string& r : results) EXPECT_EQ(r, "");
}

TEST(Runtime, ForkedProcessesAnswerEveryCollective) {
  for (int ranks : {1, 2, 3}) {
    ForkLauncher launcher(ranks);
    expect_every_rank_right(launcher);
  }
}

TEST(Runtime, ThreadsAnswerEveryCollective) {
  for (int ranks : {1, 2, 5}) {
    ThreadLauncher launcher(ranks);
    expect_every_rank_right(launcher);
  }
}

TEST(Runtime, ForkedCollectiveOverItsLimitFailsNamingTheRank) {
  ForkLauncher launcher(2);
  try {
    launcher.run([](Runtime& rt) {
      rt.allgather(std::string(rt.rank() == 1 ? kForkExchangeBytes + 1 : 1, 'x'));
      return std::string();
    });
    FAIL() << "an oversized collective was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1 passed"), std::string::npos) << e.what();
  }
}

TEST(Runtime, AThreadRankThatFailsReleasesTheOthersAndIsNamed) {
  ThreadLauncher launcher(3);
  try {
    launcher.run([](Runtime& rt) {
      if (rt.rank() == 1) throw std::runtime_error("the device is gone");
      rt.barrier();  // the others wait here for rank 1, which never comes
      return std::string();
    });
    FAIL() << "a failed rank was not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "rank 1: the device is gone");
  }
  // Unavailable stays Unavailable (the case is waived, not failed), as the fork launcher does.
  EXPECT_THROW(launcher.run([](Runtime& rt) -> std::string {
    if (rt.rank() == 2) throw Unavailable("no such device");
    return std::string();
  }),
               Unavailable);
}

TEST(Runtime, RootOutsideTheRanksIsRefused) {
  ThreadLauncher launcher(2);
  const auto results = launcher.run([](Runtime& rt) {
    std::string answer;
    try {
      rt.gather("x", 2);
    } catch (const std::invalid_argument& e) {
      answer = e.what();
    }
    return answer;
  });
  for (const std::string& r : results) EXPECT_NE(r.find("root 2 is not a rank of 2"), std::string::npos) << r;
}

// Two ranks of a pair runtime on threads of this process; each rank's body result comes back.
std::vector<std::string> run_pair(const std::function<std::unique_ptr<Runtime>(int rank)>& make,
                                  const std::function<std::string(Runtime&)>& body) {
  std::vector<std::string> results(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      try {
        std::unique_ptr<Runtime> rt = make(r);
        results[static_cast<std::size_t>(r)] = body(*rt);
      } catch (const std::exception& e) {
        results[static_cast<std::size_t>(r)] = std::string("threw: ") + e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return results;
}

TEST(Runtime, TcpPairAnswersEveryCollective) {
  // Rank 0 listens on a port of its choosing and tells rank 1 through the hooks (no fixed port, so
  // parallel tests never meet each other).
  std::promise<SocketAddress> listening;
  std::shared_future<SocketAddress> where = listening.get_future().share();
  std::atomic<int> arrived{0};
  const auto results = run_pair(
      [&](int rank) {
        PairRendezvousHooks hooks;
        if (rank == 0) hooks.listening = [&](const SocketAddress& a) { listening.set_value(a); };
        else hooks.find_peer = [&](std::chrono::steady_clock::time_point) { return where.get(); };
        return std::make_unique<TcpPairRuntime>(rank, "127.0.0.1", "127.0.0.1", kPairRendezvousPort, 10s, 10s,
                                                "pair token", hooks);
      },
      [&](Runtime& rt) {
        std::string wrong = check_collectives(rt);
        wrong += check_barrier(rt, arrived);
        // The session token both ranks end up with: rank 0's draw when none is given.
        const std::string token = shared_session_token(rt, "");
        const std::vector<std::string> tokens = rt.allgather(token);
        if (token.size() != 64 || tokens[0] != tokens[1]) wrong += "session token differs or is not 32 bytes in hex";
        if (shared_session_token(rt, "given") != "given") wrong += "a given token was replaced";
        return wrong;
      });
  EXPECT_EQ(results[0], "");
  EXPECT_EQ(results[1], "");
}

TEST(Runtime, SharedDirectoryPairAnswersEveryCollective) {
  test::SharedDir dir;
  std::atomic<int> arrived{0};
  const auto results = run_pair(
      [&](int rank) {
        const PairMeet meet{.rank = rank, .self = "127.0.0.1", .peer = "127.0.0.1", .window = 10s, .wait = 10s,
                            .token = "dir token"};
        return std::make_unique<SharedDirRuntime>(dir.path.string(), meet, 0, 1, false);
      },
      [&](Runtime& rt) { return check_collectives(rt) + check_barrier(rt, arrived); });
  EXPECT_EQ(results[0], "");
  EXPECT_EQ(results[1], "");
  // Each node removed what it made.
  EXPECT_TRUE(std::filesystem::is_empty(dir.path));
}

TEST(Runtime, SharedDirectoryWithoutItsPeerNamesTheFileAndTheWindow) {
  test::SharedDir dir;
  const PairMeet meet{.rank = 1, .self = "127.0.0.2", .peer = "127.0.0.1", .window = 1s, .wait = 1s,
                      .token = "dir token", .listener = "the other node (--sp 0)"};
  try {
    SharedDirRuntime rt(dir.path.string(), meet, 0, 1, false);
    FAIL() << "met a peer that never started";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("127.0.0.1_0_127.0.0.2_1_device/procInfo did not appear within 1 s"), std::string::npos) << what;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path));  // its flag file and ascend_check removed
}

// run_threads: every body runs on a thread of its own while `meanwhile` runs on the caller's; a
// body's error comes back only after every thread ended (the others finish their work), the first
// thrown when several throw (the cause, not a later thread's consequence of it).
TEST(ThreadTeam, EveryThreadEndsBeforeTheFirstErrorThrownComesBack) {
  std::atomic<int> finished{0};
  std::thread::id meanwhile_on;
  std::vector<std::thread::id> body_on(4);
  run_threads(4, [&](std::size_t i) {
    body_on[i] = std::this_thread::get_id();
    ++finished;
  }, [&] { meanwhile_on = std::this_thread::get_id(); });
  EXPECT_EQ(finished, 4);
  EXPECT_EQ(meanwhile_on, std::this_thread::get_id());
  for (const auto& id : body_on) EXPECT_NE(id, std::this_thread::get_id());

  finished = 0;
  std::atomic<bool> cause_thrown{false};
  try {
    run_threads(4, [&](std::size_t i) {
      if (i == 3) {
        cause_thrown = true;
        throw std::runtime_error("thread 3, the cause");
      }
      if (i == 0) {
        // Fails only after thread 3 did (and its error was long kept), as a waiting thread does.
        while (!cause_thrown) std::this_thread::sleep_for(1ms);
        std::this_thread::sleep_for(100ms);
        throw std::runtime_error("thread 0, a consequence");
      }
      std::this_thread::sleep_for(20ms);  // still at work when the others threw
      ++finished;
    });
    ADD_FAILURE() << "no error came back";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "thread 3, the cause");
  }
  EXPECT_EQ(finished, 2) << "the error came back before every thread ended";
  EXPECT_THROW(run_threads(0, [](std::size_t) {}, [] { throw std::logic_error("meanwhile"); }), std::logic_error);
}

}  // namespace
}  // namespace xb
