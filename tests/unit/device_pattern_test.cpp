// The verification pattern in device memory (src/backends/device_pattern.hpp), through the cpu
// backend's staging and streams, on buffers of several 64 MiB staging chunks: the pattern must run
// on across chunks (it is a function of the absolute offset), and a corrupted byte past the first
// chunk must be found at its absolute offset with the byte found there. The cpu backend's device
// memory is host RAM, so the test reads it directly, independently of the code under test.
#include <gtest/gtest.h>

#include <cstring>
#include <span>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/device_pattern.hpp"
#include "core/pattern.hpp"

namespace xb {
namespace {

constexpr std::size_t kChunk = std::size_t{4} << 20;  // device_pattern.cpp's staging bound
// Two whole chunks and a part of a third, with a length that is not a multiple of 8: every chunk
// boundary and the unaligned tail are crossed.
constexpr std::size_t kBytes = 2 * kChunk + (1u << 20) + 5;
constexpr std::uint64_t kSeed = 0x5eed;

class DevicePattern : public testing::Test {
 protected:
  std::unique_ptr<Backend> backend = make_cpu_backend();
  std::unique_ptr<Device> device = backend->open_device(0);
  std::unique_ptr<Stream> stream = device->create_stream("memcpy");
  std::unique_ptr<Allocation> memory = device->allocate(kBytes);
  std::span<std::byte> bytes{static_cast<std::byte*>(memory->data()), kBytes};
};

TEST_F(DevicePattern, FillRunsOnAcrossStagingChunks) {
  fill_device_pattern(*device, *stream, bytes.data(), bytes.size(), kSeed);
  // Read directly: the byte at every absolute offset is the pattern's byte for that offset.
  EXPECT_EQ(find_pattern_mismatch(bytes, kSeed, 0), std::nullopt);
  for (const std::size_t at : {kChunk - 1, kChunk, kChunk + 1, kChunk + 12345, 2 * kChunk, kBytes - 1}) {
    EXPECT_EQ(static_cast<std::uint8_t>(bytes[at]), pattern_byte(kSeed, at)) << "offset " << at;
  }
  // The second chunk is not the first one again.
  EXPECT_NE(std::memcmp(bytes.data(), bytes.data() + kChunk, 4096), 0);
}

TEST_F(DevicePattern, CheckAcceptsThePatternWrittenByTheHost) {
  fill_pattern(bytes, kSeed, 0);  // not through fill_device_pattern: the check is judged on its own
  EXPECT_EQ(find_device_pattern_mismatch(*device, *stream, bytes.data(), bytes.size(), kSeed), std::nullopt);
  // Another seed is not the same pattern.
  EXPECT_NE(find_device_pattern_mismatch(*device, *stream, bytes.data(), bytes.size(), kSeed + 1), std::nullopt);
}

TEST_F(DevicePattern, AByteFlippedPastTheFirstChunkIsFoundAtItsAbsoluteOffset) {
  fill_device_pattern(*device, *stream, bytes.data(), bytes.size(), kSeed);
  for (const std::size_t at : {kChunk + 777, 2 * kChunk + 3, kBytes - 1}) {
    const auto good = bytes[at];
    bytes[at] ^= std::byte{0x40};
    const auto bad = find_device_pattern_mismatch(*device, *stream, bytes.data(), bytes.size(), kSeed);
    ASSERT_TRUE(bad.has_value()) << "offset " << at;
    EXPECT_EQ(bad->offset, at);
    EXPECT_EQ(bad->found, static_cast<std::uint8_t>(good ^ std::byte{0x40}));
    bytes[at] = good;
  }
  EXPECT_EQ(find_device_pattern_mismatch(*device, *stream, bytes.data(), bytes.size(), kSeed), std::nullopt);
}

TEST_F(DevicePattern, TheFirstOfTwoCorruptedBytesIsNamed) {
  fill_device_pattern(*device, *stream, bytes.data(), bytes.size(), kSeed);
  bytes[2 * kChunk + 10] ^= std::byte{1};
  bytes[kChunk + 10] ^= std::byte{1};
  const auto bad = find_device_pattern_mismatch(*device, *stream, bytes.data(), bytes.size(), kSeed);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->offset, kChunk + 10);
}

}  // namespace
}  // namespace xb
