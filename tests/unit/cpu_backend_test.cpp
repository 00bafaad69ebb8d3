// The built-in cpu backend (src/backends/cpu/cpu_backend.hpp) through the device interface
// (src/backends/device.hpp): memory, streams of each engine, batches, events and cross-stream order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "backends/cpu/copy_kernels.hpp"
#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "memory/host_buffer.hpp"

#include "support/locked_memory.hpp"

namespace xb {
namespace {

using test::kMlockLocks;
using test::locked_bytes;

class CpuBackendTest : public testing::Test {
 protected:
  std::unique_ptr<Backend> backend = make_cpu_backend();
  std::unique_ptr<Device> device = backend->open_device(0);
};

TEST_F(CpuBackendTest, NameAvailabilityAndCapabilities) {
  EXPECT_EQ(backend->name(), "cpu");
  EXPECT_TRUE(backend->availability().ok);
  EXPECT_GE(backend->device_count(), 1);
  const Capabilities& caps = backend->capabilities();
  ASSERT_FALSE(caps.engines.empty());
  EXPECT_EQ(caps.engines.front(), "memcpy");  // the default engine
  // "nt" is listed exactly where streaming stores exist (always on x86-64).
  EXPECT_EQ(std::find(caps.engines.begin(), caps.engines.end(), "nt") != caps.engines.end(),
            cpu::nontemporal_available());
  EXPECT_TRUE(caps.virtual_devices);
  EXPECT_TRUE(caps.device_memory_in_host_ram);
  EXPECT_TRUE(caps.batch_submit);
  // Every listed engine makes a stream of that engine.
  for (const auto& e : caps.engines) EXPECT_EQ(device->create_stream(e)->engine(), e);
}

TEST_F(CpuBackendTest, OpenDeviceIndices) {
  EXPECT_EQ(device->info().index, 0);
  EXPECT_NE(device->info().name.find("cpu"), std::string::npos) << device->info().name;
  // Virtual devices: more arenas than NUMA nodes may be opened.
  auto d5 = backend->open_device(5);
  EXPECT_EQ(d5->info().index, 5);
  EXPECT_GE(d5->info().numa_node, 0);
  EXPECT_THROW(backend->open_device(-1), UsageError);
}

TEST_F(CpuBackendTest, DeviceMemoryIsZeroedAndWritable) {
  auto a = device->allocate(100000);
  ASSERT_NE(a->data(), nullptr);
  EXPECT_EQ(a->size(), 100000u);
  EXPECT_EQ(a->place(), MemoryPlace::device);
  const std::span<std::byte> bytes(static_cast<std::byte*>(a->data()), a->size());
  for (std::size_t i = 0; i < bytes.size(); i += 997) ASSERT_EQ(bytes[i], std::byte{0}) << i;
  fill_pattern(bytes, 9, 0);
  EXPECT_EQ(find_pattern_mismatch(bytes, 9, 0), std::nullopt);
}

TEST_F(CpuBackendTest, AllocateHostPinnedAndPageable) {
  const std::uint64_t before = locked_bytes();
  {
    auto pinned = device->allocate_host(1 << 20, true);
    EXPECT_EQ(pinned->place(), MemoryPlace::host_pinned);
    EXPECT_EQ(pinned->size(), 1u << 20);
    if (kMlockLocks) {
      EXPECT_GE(locked_bytes(), before + (1u << 20));
    }
    auto pageable = device->allocate_host(1 << 20, false);
    EXPECT_EQ(pageable->place(), MemoryPlace::host_pageable);
    EXPECT_EQ(pageable->size(), 1u << 20);
    EXPECT_NE(pinned->data(), pageable->data());
    for (auto* a : {pinned.get(), pageable.get()}) {
      const std::span<std::byte> bytes(static_cast<std::byte*>(a->data()), a->size());
      fill_pattern(bytes, 10, 0);
      EXPECT_EQ(find_pattern_mismatch(bytes, 10, 0), std::nullopt);
    }
  }
  EXPECT_EQ(locked_bytes(), before);
}

TEST_F(CpuBackendTest, RegisterHostLocksUntilReleased) {
  auto buffer = make_host_buffer(HostMemoryKind::pageable, 2 << 20);
  const std::uint64_t before = locked_bytes();
  {
    auto reg = device->register_host(buffer->data(), buffer->size());
    ASSERT_NE(reg, nullptr);
    if (kMlockLocks) {
      EXPECT_GE(locked_bytes(), before + buffer->size());
    }
  }
  EXPECT_EQ(locked_bytes(), before);
}

// Copies `bytes` from src+src_off to dst+dst_off on a stream of `engine`, and checks exactly that
// range changed, and to the right bytes.
void copy_and_check(Device& dev, const std::string& engine, std::size_t bytes, std::size_t src_off,
                    std::size_t dst_off) {
  SCOPED_TRACE(testing::Message() << engine << " bytes " << bytes << " src+" << src_off << " dst+" << dst_off);
  constexpr std::size_t kGuard = 64;
  auto src = dev.allocate(bytes + src_off + kGuard);
  auto dst = dev.allocate(bytes + dst_off + kGuard);
  auto* s = static_cast<std::byte*>(src->data());
  auto* d = static_cast<std::byte*>(dst->data());
  fill_pattern({s + src_off, bytes}, 21, 0);
  std::memset(d, 0xee, dst->size());
  auto stream = dev.create_stream(engine);
  stream->copy({d + dst_off, s + src_off, bytes});
  stream->synchronize();
  EXPECT_EQ(find_pattern_mismatch({d + dst_off, bytes}, 21, 0), std::nullopt);
  for (std::size_t i = 0; i < dst_off; ++i) ASSERT_EQ(d[i], std::byte{0xee}) << "wrote before the range at " << i;
  for (std::size_t i = dst_off + bytes; i < dst->size(); ++i) {
    ASSERT_EQ(d[i], std::byte{0xee}) << "wrote past the range at " << i;
  }
}

TEST_F(CpuBackendTest, MemcpyEngineCopies) {
  for (std::size_t bytes : {1u, 63u, 4096u, 1u << 20}) copy_and_check(*device, "memcpy", bytes, 0, 0);
  copy_and_check(*device, "memcpy", 12345, 3, 7);
}

TEST_F(CpuBackendTest, NontemporalEngineCopiesOddSizesAndUnalignedPointers) {
  if (!cpu::nontemporal_available()) GTEST_SKIP() << "no streaming stores on this CPU";
  for (std::size_t bytes : {0u, 1u, 15u, 16u, 17u, 63u, 64u, 65u, 127u, 1000u, 4097u, (1u << 20) + 13}) {
    for (std::size_t src_off : {0u, 1u, 5u}) {
      for (std::size_t dst_off : {0u, 3u, 8u, 15u}) copy_and_check(*device, "nt", bytes, src_off, dst_off);
    }
  }
}

TEST_F(CpuBackendTest, CopyBatchCopiesEveryOp) {
  constexpr std::size_t kOps = 37, kBytes = 3000;  // odd size on purpose
  for (const std::string& engine : backend->capabilities().engines) {
    auto src = device->allocate(kOps * kBytes);
    auto dst = device->allocate(kOps * kBytes);
    auto* s = static_cast<std::byte*>(src->data());
    auto* d = static_cast<std::byte*>(dst->data());
    fill_pattern({s, kOps * kBytes}, 33, 0);
    std::vector<CopyOp> ops;
    // In reverse order, so a batch that stopped early or reused one op would be caught.
    for (std::size_t i = kOps; i-- > 0;) ops.push_back({d + i * kBytes, s + i * kBytes, kBytes});
    auto stream = device->create_stream(engine);
    stream->copy_batch(ops);
    stream->synchronize();
    EXPECT_EQ(find_pattern_mismatch({d, kOps * kBytes}, 33, 0), std::nullopt) << engine;
  }
}

TEST_F(CpuBackendTest, CopiesBetweenDevicesAndHostKinds) {
  auto peer = backend->open_device(1);
  EXPECT_TRUE(device->peer_access(*peer).ok);
  device->enable_peer_access(*peer);
  auto host = device->allocate_host(256 * 1024, true);
  auto mine = device->allocate(256 * 1024);
  auto theirs = peer->allocate(256 * 1024);
  fill_pattern({static_cast<std::byte*>(host->data()), host->size()}, 44, 0);
  auto stream = device->create_stream("memcpy");
  stream->copy({mine->data(), host->data(), host->size()});     // h2d
  stream->copy({theirs->data(), mine->data(), host->size()});   // d2d (peer), in order after it
  stream->synchronize();
  EXPECT_EQ(find_pattern_mismatch({static_cast<std::byte*>(theirs->data()), theirs->size()}, 44, 0), std::nullopt);
}

TEST_F(CpuBackendTest, EventsRecordSynchronizeAndTime) {
  auto stream = device->create_stream("memcpy");
  auto start = device->create_event();
  auto end = device->create_event();
  auto src = device->allocate(8 << 20);
  auto dst = device->allocate(8 << 20);
  fill_pattern({static_cast<std::byte*>(src->data()), src->size()}, 55, 0);
  stream->record(*start);
  for (int i = 0; i < 4; ++i) stream->copy({dst->data(), src->data(), src->size()});
  stream->record(*end);
  end->synchronize();
  EXPECT_TRUE(end->ready());
  EXPECT_TRUE(start->ready());  // recorded earlier on the same in-order stream
  // Everything queued before the event is done once the event is.
  EXPECT_EQ(find_pattern_mismatch({static_cast<std::byte*>(dst->data()), dst->size()}, 55, 0), std::nullopt);
  const double us = device->elapsed_us(*start, *end);
  EXPECT_GE(us, 0.0);
  // Re-recording resets the event; it completes again.
  stream->record(*end);
  stream->synchronize();
  EXPECT_TRUE(end->ready());
  EXPECT_GE(device->elapsed_us(*start, *end), us);
}

TEST_F(CpuBackendTest, StreamWaitOrdersWorkAcrossStreams) {
  // Stream A: a long copy src -> mid, then an event. Stream B: waits for the event, then copies
  // mid -> dst. dst is right only if B's copy ran after A's; repeated so an unordered
  // implementation would be caught.
  constexpr std::size_t kBytes = 16 << 20;
  auto a = device->create_stream("memcpy");
  auto b = device->create_stream(backend->capabilities().engines.back());
  auto src = device->allocate(kBytes);
  auto mid = device->allocate(kBytes);
  auto dst = device->allocate(kBytes);
  auto ev = device->create_event();
  for (std::uint64_t round = 0; round < 4; ++round) {
    SCOPED_TRACE(round);
    fill_pattern({static_cast<std::byte*>(src->data()), kBytes}, 100 + round, 0);
    for (int i = 0; i < 3; ++i) a->copy({mid->data(), src->data(), kBytes});
    a->record(*ev);
    b->wait(*ev);
    b->copy({dst->data(), mid->data(), kBytes});
    b->synchronize();
    EXPECT_TRUE(ev->ready());
    EXPECT_EQ(find_pattern_mismatch({static_cast<std::byte*>(dst->data()), kBytes}, 100 + round, 0), std::nullopt);
    a->synchronize();
  }
}

TEST_F(CpuBackendTest, UnknownEngineIsUnavailable) {
  try {
    device->create_stream("bogus");
    FAIL() << "a stream of engine 'bogus' was made";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos) << e.what();
  }
  EXPECT_THROW(device->create_stream(""), Unavailable);
}

TEST_F(CpuBackendTest, DestroyingAStreamFinishesQueuedWork) {
  auto src = device->allocate(4 << 20);
  auto dst = device->allocate(4 << 20);
  fill_pattern({static_cast<std::byte*>(src->data()), src->size()}, 66, 0);
  {
    auto stream = device->create_stream("memcpy");
    stream->copy({dst->data(), src->data(), src->size()});
  }  // no synchronize: the destructor drains the queue
  EXPECT_EQ(find_pattern_mismatch({static_cast<std::byte*>(dst->data()), dst->size()}, 66, 0), std::nullopt);
}

}  // namespace
}  // namespace xb
