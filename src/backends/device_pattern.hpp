#pragma once
// The verification pattern written into, and checked in, device memory the CPU cannot address (a
// GPU's): through two pinned staging chunks of at most 4 MiB and one of the device's streams, the
// CPU making or checking one chunk while the stream copies the other, so a 4 GiB region needs no
// 4 GiB of pinned host memory. Setup and checking only, never inside a timed iteration. Shared by
// the copy job, the p2p job and the endpoints' device memory (xfer, link, fleet).
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "backends/device.hpp"

namespace xb {

// The first offset whose byte differs from the pattern, with the byte found there.
struct DeviceMismatch {
  std::uint64_t offset = 0;
  std::uint8_t found = 0;
};

class DevicePatternStaging {
 public:
  // Staging sized for regions of up to `region_bytes` (pinned where the device can lock it).
  DevicePatternStaging(Device& dev, std::uint64_t region_bytes);
  ~DevicePatternStaging();
  DevicePatternStaging(const DevicePatternStaging&) = delete;
  DevicePatternStaging& operator=(const DevicePatternStaging&) = delete;

  // The pattern of `seed` at positions [offset, offset + bytes), written to base + offset through
  // `stream` (one of the device's); returns when the stream is done.
  void fill(Stream& stream, std::byte* base, std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed);
  // The first position of [offset, offset + bytes) whose byte differs from the pattern.
  std::optional<DeviceMismatch> find_mismatch(Stream& stream, const std::byte* base, std::uint64_t offset,
                                              std::uint64_t bytes, std::uint64_t seed);

 private:
  std::byte* stage(std::size_t slot) const;

  std::uint64_t chunk_;
  std::unique_ptr<Allocation> staging_;
  std::array<std::unique_ptr<Event>, 2> events_;
};

// A whole buffer of `dev`'s memory (`stream` one of dev's), with staging of its own.
void fill_device_pattern(Device& dev, Stream& stream, std::byte* dst, std::size_t bytes, std::uint64_t seed);
std::optional<DeviceMismatch> find_device_pattern_mismatch(Device& dev, Stream& stream, const std::byte* src,
                                                          std::size_t bytes, std::uint64_t seed);

}  // namespace xb
