// The passive side of one-sided transfers into memory UCX allocated: a peer's put/get there is the
// peer's own copy, so a side that serves (progress, then wait) must leave the CPU to it rather than
// poll. On a 2-core machine the polling server took a third of each serving slice and xfer's get
// reached 0.6 of ucx_perftest's, whose server sleeps. What is measured is the server thread's own
// CPU time per serving round, not how long anything took: a round that polls before it sleeps costs
// about the polling time (1 ms), one that sleeps at once costs a wake-up (tens of microseconds).
#include <gtest/gtest.h>

#include <time.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <span>
#include <thread>

#include "core/pattern.hpp"
#include "transport/ucx/ucx_transport.hpp"
#include "ucx/ucx_test_support.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;
using test::ScopedEnv;

constexpr std::size_t kBlock = 1u << 20;
// Transfers per direction: enough copying that the client's CPU time dwarfs a server's wake-ups.
constexpr int kTransfers = 1500;

using test::bytes_of;

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// A server on its own thread serving the way the xfer/link session loop does (progress, else wait
// 2 ms), in a region of two blocks UCX allocated: block 0 holds the pattern of seed 7 (the client
// gets it), block 1 receives the client's puts. It counts the rounds of its serving loop that
// waited and the CPU time of the loop.
class AllocatedServer {
 public:
  AllocatedServer() {
    std::promise<void> listening;
    auto ready = listening.get_future();
    thread_ = std::thread([this, &listening] {
      bool announced = false;
      try {
        auto transport = make_ucx_transport();
        region_ = transport->allocate_memory(2 * kBlock);
        origin_ = region_->origin();
        fill_pattern(bytes_of(*region_).subspan(0, kBlock), 7, 0);
        auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
        address_ = listener->address();
        descriptor_ = region_->describe();
        announced = true;
        listening.set_value();
        auto endpoint = listener->accept(20s);
        const double start = thread_cpu_ms();
        while (!stop_) {
          if (!transport->progress()) {
            transport->wait(2ms);
            ++waits_;
          }
        }
        serving_cpu_ms_ = thread_cpu_ms() - start;
        endpoint.reset();
      } catch (...) {
        error_ = std::current_exception();
        if (!announced) listening.set_value();
      }
    });
    ready.wait();
  }
  ~AllocatedServer() { stop(); }

  // Stops serving; the region stays readable until the server is destroyed.
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

  SocketAddress address() const { return address_; }
  const RegionDescriptor& descriptor() const { return descriptor_; }
  const std::string& origin() const { return origin_; }
  LocalRegion& region() { return *region_; }
  double serving_cpu_ms() const { return serving_cpu_ms_; }
  std::uint64_t waits() const { return waits_; }
  std::exception_ptr error() const { return error_; }

 private:
  std::unique_ptr<LocalRegion> region_;
  std::string origin_;
  SocketAddress address_;
  RegionDescriptor descriptor_;
  std::atomic<bool> stop_{false};
  double serving_cpu_ms_ = 0;
  std::uint64_t waits_ = 0;
  std::exception_ptr error_;
  std::thread thread_;
};

TEST(UcxServing, AServerOfUcxSegmentsSleepsWhileItsPeerCopies) {
  ScopedEnv tls("UCX_TLS", "posix,sysv,cma,self");
  AllocatedServer server;
  ASSERT_EQ(server.error(), nullptr);
  if (server.origin() != "ucx sysv" && server.origin() != "ucx posix") {
    GTEST_SKIP() << "UCX allocated '" << server.origin() << "', not a shared-memory segment a peer maps";
  }
  auto client = make_ucx_transport();
  auto sink = client->allocate_memory(kBlock);
  auto source = client->allocate_memory(kBlock);
  fill_pattern(bytes_of(*source), 9, 0);
  double client_cpu_ms = 0;
  {
    auto endpoint = client->connect(server.address(), 20s);
    auto remote = endpoint->attach(server.descriptor());
    // Let the server go quiet after the connection's own messages.
    std::this_thread::sleep_for(20ms);
    const double start = thread_cpu_ms();
    for (int i = 0; i < kTransfers; ++i) {
      std::memset(sink->data(), 0, 64);  // each get must bring the block back, the head included
      endpoint->get(*sink, 0, *remote, 0, kBlock);
      endpoint->flush(5s);
      endpoint->put(*source, 0, *remote, kBlock, kBlock);
      endpoint->flush(5s);
    }
    client_cpu_ms = thread_cpu_ms() - start;
    EXPECT_EQ(find_pattern_mismatch(bytes_of(*sink), 7, 0), std::nullopt);
  }
  server.stop();
  ASSERT_EQ(server.error(), nullptr);
  EXPECT_EQ(find_pattern_mismatch(bytes_of(server.region()).subspan(kBlock), 9, 0), std::nullopt);
  RecordProperty("server_cpu_us", static_cast<int>(server.serving_cpu_ms() * 1000));
  RecordProperty("server_waits", static_cast<int>(server.waits()));
  RecordProperty("client_cpu_us", static_cast<int>(client_cpu_ms * 1000));
  // The client's copies outlast many 2 ms serving rounds, whatever the machine's load.
  ASSERT_GE(server.waits(), 10u) << "the client's " << client_cpu_ms << " ms of copies did not span the server's waits";
  // Polling 1 ms before each sleep costs up to 1 ms of CPU a round; a sleep at once, a wake-up.
  const double per_wait_ms = server.serving_cpu_ms() / static_cast<double>(server.waits());
  EXPECT_LT(per_wait_ms, 0.25) << "server: " << server.serving_cpu_ms() << " ms of CPU in " << server.waits()
                               << " waits, while the client spent " << client_cpu_ms << " ms on " << kTransfers
                               << " gets and puts of " << kBlock << " bytes";
}

}  // namespace
}  // namespace xb
