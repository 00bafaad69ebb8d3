#pragma once
// The verification pattern written into, and checked in, device memory the CPU cannot address (a
// GPU's): through a pinned staging buffer of at most 64 MiB and one of the device's streams, so a
// 4 GiB region needs no 4 GiB of pinned host memory. Setup and checking only, never inside a timed
// iteration. Shared by the copy job (its device-side buffers) and the p2p job (every device's source
// and destination); where device memory is host RAM the copy job fills and checks it in place.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "backends/device.hpp"

namespace xb {

// `dev` gives the staging buffer, `stream` (one of dev's) the copies; `dst` is dev's memory.
void fill_device_pattern(Device& dev, Stream& stream, std::byte* dst, std::size_t bytes, std::uint64_t seed);

// The first offset whose byte differs from the pattern, with the byte found there.
struct DeviceMismatch {
  std::uint64_t offset = 0;
  std::uint8_t found = 0;
};
std::optional<DeviceMismatch> find_device_pattern_mismatch(Device& dev, Stream& stream, const std::byte* src,
                                                          std::size_t bytes, std::uint64_t seed);

}  // namespace xb
