#pragma once
// The verification pattern written into, and checked in, device memory the CPU cannot address (a
// GPU's): through a pinned staging buffer and one of the device's streams. Setup and checking only,
// never inside a timed iteration. Where device memory is host RAM (the cpu backend) the copy job
// fills and checks it in place instead.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "backends/device.hpp"

namespace xb {

void fill_device_pattern(Device& dev, std::string_view engine, std::byte* dst, std::size_t bytes, std::uint64_t seed);

// The first offset whose byte differs from the pattern, with the byte found there.
struct DeviceMismatch {
  std::uint64_t offset = 0;
  std::uint8_t found = 0;
};
std::optional<DeviceMismatch> find_device_pattern_mismatch(Device& dev, std::string_view engine, const std::byte* src,
                                                          std::size_t bytes, std::uint64_t seed);

}  // namespace xb
