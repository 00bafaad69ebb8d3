// EndpointMemory on the real cpu backend: every place allocates and describes itself; host and
// device memory fill and verify with the pattern at absolute offsets and find a flipped byte at its
// exact offset (device memory read back through its stream); ranges are bounds-checked; null memory
// is never touched and refuses every CPU access.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/pattern.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "support/job_helpers.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

using test::error_of;

struct CpuDevice {
  std::unique_ptr<Backend> backend = make_cpu_backend();
  std::unique_ptr<Device> device = backend->open_device(0);
};

class EndpointMemoryPlaces : public ::testing::TestWithParam<RegionPlace> {
 protected:
  CpuDevice cpu;
};

// A size that spans several of the device memory's 4 MiB staging chunks and ends mid-word.
constexpr std::uint64_t kBytes = (std::uint64_t{9} << 20) + 13;

TEST_P(EndpointMemoryPlaces, FillVerifyFindsAFlippedByteAtItsOffset) {
  auto m = EndpointMemory::make(*cpu.backend, *cpu.device, GetParam(), kBytes);
  ASSERT_EQ(m->place(), GetParam());
  ASSERT_EQ(m->size(), kBytes);
  m->fill(0, kBytes, 42);
  EXPECT_EQ(m->verify(0, kBytes, 42), std::nullopt);
  // Another seed is another pattern: the very first byte differs.
  EXPECT_EQ(m->verify(0, kBytes, 43), std::optional<std::uint64_t>(0));

  // Flip bytes through copy_in (the CPU never writes device memory directly), in the second and
  // the last chunk, and find each at its exact absolute offset, also from a verify that starts at an
  // unaligned offset.
  for (std::uint64_t at : {std::uint64_t{5} << 20 | 3, kBytes - 1}) {
    std::uint8_t b = 0;
    m->copy_out(at, &b, 1);
    EXPECT_EQ(b, pattern_byte(42, at));
    const std::uint8_t flipped = b ^ 0x10;
    m->copy_in(at, &flipped, 1);
    EXPECT_EQ(m->verify(0, kBytes, 42), std::optional<std::uint64_t>(at)) << at;
    EXPECT_EQ(m->verify(7, kBytes - 7, 42), std::optional<std::uint64_t>(at)) << at;
    EXPECT_EQ(m->verify(0, at, 42), std::nullopt) << "the range before the flipped byte is intact";
    m->copy_in(at, &b, 1);
    EXPECT_EQ(m->verify(0, kBytes, 42), std::nullopt);
  }
}

TEST_P(EndpointMemoryPlaces, PartialFillUsesAbsoluteOffsets) {
  auto m = EndpointMemory::make(*cpu.backend, *cpu.device, GetParam(), 1 << 16);
  m->fill(1000, 5000, 7);
  EXPECT_EQ(m->verify(1000, 5000, 7), std::nullopt);
  EXPECT_EQ(m->verify(3001, 10, 7), std::nullopt) << "any sub-range of a fill checks against the same offsets";
  // What a fill of [0, 6000) would have written agrees with [1000, 6000) of the partial fill.
  std::vector<std::byte> host(5000);
  m->copy_out(1000, host.data(), host.size());
  EXPECT_EQ(find_pattern_mismatch(host, 7, 1000), std::nullopt);
  EXPECT_NE(find_pattern_mismatch(host, 7, 0), std::nullopt) << "offsets are absolute, not relative";
}

TEST_P(EndpointMemoryPlaces, RangesOutsideTheRegionAreRefused) {
  auto m = EndpointMemory::make(*cpu.backend, *cpu.device, GetParam(), 4096);
  std::vector<std::byte> host(8192);
  EXPECT_THROW(m->fill(4000, 97, 1), std::out_of_range);
  EXPECT_THROW(m->verify(4097, 0, 1), std::out_of_range);
  EXPECT_THROW(m->verify(1, ~std::uint64_t{0}, 1), std::out_of_range) << "no wrap-around";
  EXPECT_THROW(m->copy_in(0, host.data(), 4097), std::out_of_range);
  EXPECT_THROW(m->copy_out(4096, host.data(), 1), std::out_of_range);
  const std::string message = error_of([&] { m->fill(4000, 97, 1); });
  EXPECT_NE(message.find("[4000, +97)"), std::string::npos) << message;
  EXPECT_NE(message.find("4096 bytes"), std::string::npos) << message;
  // The edges themselves are inside.
  m->fill(0, 4096, 1);
  EXPECT_EQ(m->verify(4096, 0, 1), std::nullopt);
  EXPECT_EQ(m->verify(0, 4096, 1), std::nullopt);
}

std::string place_name(const ::testing::TestParamInfo<RegionPlace>& p) {
  return p.param == RegionPlace::host ? "host" : "device";
}

INSTANTIATE_TEST_SUITE_P(HostAndDevice, EndpointMemoryPlaces, ::testing::Values(RegionPlace::host, RegionPlace::device),
                         place_name);

TEST(EndpointMemory, DescribesEachPlace) {
  CpuDevice cpu;
  auto host = EndpointMemory::make(*cpu.backend, *cpu.device, RegionPlace::host, 4096);
  auto device = EndpointMemory::make(*cpu.backend, *cpu.device, RegionPlace::device, 4096);
  auto null = EndpointMemory::make(*cpu.backend, *cpu.device, RegionPlace::null, 4096);
  EXPECT_EQ(host->description(), "host pinned");  // root: mlock is allowed
  EXPECT_EQ(device->description(), "cpu::device::0");
  EXPECT_EQ(null->description(), "null");
  auto device3 = cpu.backend->open_device(3);
  EXPECT_EQ(EndpointMemory::make(*cpu.backend, *device3, RegionPlace::device, 1)->description(), "cpu::device::3");
  for (auto* m : {host.get(), device.get(), null.get()}) {
    EXPECT_NE(m->data(), nullptr);
    EXPECT_EQ(m->size(), 4096u);
  }
  EXPECT_NE(host->data(), device->data());
}

TEST(EndpointMemory, NullMemoryIsNeverTouchedAndRefusesCpuAccess) {
  CpuDevice cpu;
  // 1 GiB reserves nothing: the pages come into being only when a transport writes them.
  auto null = EndpointMemory::make(*cpu.backend, *cpu.device, RegionPlace::null, std::uint64_t{1} << 30);
  EXPECT_EQ(null->place(), RegionPlace::null);
  std::byte b{};
  EXPECT_THROW(null->fill(0, 1, 1), std::invalid_argument);
  EXPECT_THROW(null->verify(0, 1, 1), std::invalid_argument);
  EXPECT_THROW(null->copy_in(0, &b, 1), std::invalid_argument);
  EXPECT_THROW(null->copy_out(0, &b, 1), std::invalid_argument);
  const std::string message = error_of([&] { null->verify(0, 1, 1); });
  EXPECT_NE(message.find("never touched by the CPU"), std::string::npos) << message;
}

TEST(EndpointMemory, RefusesEmptyRegionsAndDeviceMemoryWithoutItsBackend) {
  CpuDevice cpu;
  EXPECT_THROW(EndpointMemory::make(*cpu.backend, *cpu.device, RegionPlace::host, 0), std::invalid_argument);
  EXPECT_THROW(EndpointMemory::make(*cpu.device, RegionPlace::device, 4096), std::invalid_argument);
  // Without the backend, host and null memory are made the same way.
  EXPECT_EQ(EndpointMemory::make(*cpu.device, RegionPlace::host, 4096)->description(), "host pinned");
  EXPECT_EQ(EndpointMemory::make(*cpu.device, RegionPlace::null, 4096)->description(), "null");
}

// Host memory for a transport that allocates (UCX: a shared-memory segment a peer maps) comes from
// it, registered, and says so; for one that does not (tcp), it is the pinned memory of before.
// Device and null memory never come from the transport.
TEST(EndpointMemory, HostMemoryComesFromTheTransportWhereItAllocates) {
  CpuDevice cpu;
  for (const std::string& name : transport_names()) {
    SCOPED_TRACE(name);
    auto transport = make_transport(name);
    auto host = EndpointMemory::make(*cpu.backend, *cpu.device, RegionPlace::host, kBytes, *transport);
    ASSERT_EQ(host->size(), kBytes);
    if (name == "ucx") {
      ASSERT_NE(host->registration(), nullptr);
      EXPECT_EQ(host->registration()->data(), host->data());
      EXPECT_EQ(host->registration()->size(), kBytes);
      EXPECT_EQ(host->description(), "host (" + host->registration()->origin() + ")");
      EXPECT_EQ(host->description().rfind("host (ucx ", 0), 0u) << host->description();
    } else {
      EXPECT_EQ(host->registration(), nullptr);
      EXPECT_EQ(host->description(), "host pinned");
    }
    host->fill(0, kBytes, 5);
    EXPECT_EQ(host->verify(0, kBytes, 5), std::nullopt);
    static_cast<std::byte*>(host->data())[kBytes - 2] ^= std::byte{1};
    EXPECT_EQ(host->verify(0, kBytes, 5), std::optional<std::uint64_t>(kBytes - 2));
    for (RegionPlace place : {RegionPlace::device, RegionPlace::null}) {
      EXPECT_EQ(EndpointMemory::make(*cpu.backend, *cpu.device, place, 4096, *transport)->registration(), nullptr);
    }
  }
}

}  // namespace
}  // namespace xb
