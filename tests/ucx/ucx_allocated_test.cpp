// Memory the UCX transport allocates (Transport::allocate_memory): over shared memory a put into
// it and a get from it are one copy by the side that asks, with no work by the target — what
// ucx_perftest measures. The proof is a target thread that stops making progress once connected:
// UCX's emulated put/get into registered memory needs the target to progress, so there the flush
// would time out and these tests fail.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
using ::testing::AnyOf;

constexpr std::size_t kBytes = (8u << 20) + 4096;

using test::bytes_of;

// A target on its own thread: allocates its region (pattern of seed 7), accepts one endpoint,
// answers the connection handshake, then makes no progress at all until released.
class IdleTarget {
 public:
  IdleTarget() {
    std::promise<void> listening;
    auto ready = listening.get_future();
    thread_ = std::thread([this, &listening] {
      bool announced = false;  // after that, `listening` (the constructor's) is gone
      try {
        auto transport = make_ucx_transport();
        region_ = transport->allocate_memory(kBytes);
        fill_pattern(bytes_of(*region_), 7, 0);
        auto listener = transport->listen(SocketAddress{"127.0.0.1", 0});
        address_ = listener->address();
        descriptor_ = region_->describe();
        announced = true;
        listening.set_value();
        auto endpoint = listener->accept(20s);
        while (!connected_) {
          if (!transport->progress()) transport->wait(1ms);
        }
        released_.get_future().wait();  // idle: no progress, no wait on the worker
        while (!finished_) {
          if (!transport->progress()) transport->wait(1ms);
        }
        endpoint.reset();
        region_.reset();
      } catch (...) {
        error_ = std::current_exception();
        if (!announced) listening.set_value();  // the error is read after the constructor
      }
    });
    ready.wait();
  }
  ~IdleTarget() { join(); }

  void join() {
    if (!thread_.joinable()) return;
    try {
      released_.set_value();
    } catch (const std::future_error&) {
      // released before
    }
    finished_ = true;
    thread_.join();
  }

  SocketAddress address() const { return address_; }
  const RegionDescriptor& descriptor() const { return descriptor_; }
  LocalRegion& region() { return *region_; }
  std::exception_ptr error() const { return error_; }
  void mark_connected() { connected_ = true; }
  void release() { released_.set_value(); }
  void finish() { finished_ = true; }

 private:
  std::unique_ptr<LocalRegion> region_;
  SocketAddress address_;
  RegionDescriptor descriptor_;
  std::atomic<bool> connected_{false};
  std::atomic<bool> finished_{false};
  std::promise<void> released_;
  std::exception_ptr error_;
  std::thread thread_;
};

TEST(UcxAllocated, RegionsAreUcxSharedMemorySegmentsOfTheSizeAsked) {
  ScopedEnv tls("UCX_TLS", "posix,sysv,cma,self");
  auto transport = make_ucx_transport();
  auto region = transport->allocate_memory(12345);
  ASSERT_NE(region, nullptr);
  EXPECT_EQ(region->size(), 12345u);
  EXPECT_NE(region->data(), nullptr);
  EXPECT_THAT(region->origin(), AnyOf("ucx sysv", "ucx posix"));
  const RegionDescriptor d = region->describe();
  EXPECT_EQ(d.address, reinterpret_cast<std::uintptr_t>(region->data()));
  EXPECT_EQ(d.bytes, 12345u);
  // The memory is ours to write and read.
  fill_pattern(bytes_of(*region), 3, 0);
  EXPECT_EQ(find_pattern_mismatch(bytes_of(*region), 3, 0), std::nullopt);
}

TEST(UcxAllocated, PutAndGetCompleteWhileTheTargetMakesNoProgress) {
  ScopedEnv tls("UCX_TLS", "posix,sysv,cma,self");
  IdleTarget target;
  ASSERT_EQ(target.error(), nullptr);
  auto client = make_ucx_transport();
  auto source = client->allocate_memory(kBytes);
  auto sink = client->allocate_memory(kBytes);
  fill_pattern(bytes_of(*source), 9, 0);
  std::memset(sink->data(), 0, sink->size());
  {
    auto endpoint = client->connect(target.address(), 20s);
    target.mark_connected();
    auto remote = endpoint->attach(target.descriptor());
    // Give the target time to stop: from here on it sits in a future's wait.
    std::this_thread::sleep_for(50ms);

    // 8 MiB at an unaligned offset, then 64 KiB blocks, one flush each: every flush must finish
    // without the target (a short timeout: the emulation would need the target, and fail).
    endpoint->put(*source, 5, *remote, 3, 8u << 20);
    endpoint->flush(5s);
    for (std::size_t off = 0; off < (1u << 20); off += 65536) endpoint->put(*source, off, *remote, off, 65536);
    endpoint->flush(5s);
    endpoint->get(*sink, 0, *remote, 0, kBytes);
    endpoint->flush(5s);
    EXPECT_NE(client->info().settings.find("protocol=rma"), std::string::npos) << client->info().settings;

    // What the target holds now, read while it is still idle.
    const auto held = bytes_of(target.region());
    EXPECT_EQ(find_pattern_mismatch(held.subspan(0, 1u << 20), 9, 0), std::nullopt);
    // [1 MiB, 3 + 8 MiB) still holds the first put: source byte i + 2 at target byte i.
    EXPECT_EQ(std::memcmp(held.data() + (1u << 20), static_cast<std::byte*>(source->data()) + (1u << 20) + 2,
                          (8u << 20) + 3 - (1u << 20)),
              0);
    EXPECT_EQ(find_pattern_mismatch(held.subspan(3 + (8u << 20)), 7, 3 + (8u << 20)), std::nullopt);
    // The get brought back exactly that.
    EXPECT_EQ(std::memcmp(sink->data(), held.data(), kBytes), 0);

    target.release();
    target.finish();
  }
  target.join();
  EXPECT_EQ(target.error(), nullptr);
}

}  // namespace
}  // namespace xb
