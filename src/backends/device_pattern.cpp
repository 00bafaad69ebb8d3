#include "backends/device_pattern.hpp"

#include <algorithm>
#include <span>

#include "core/pattern.hpp"

namespace xb {
namespace {
// Staging is bounded whatever the buffer: the pattern moves through it chunk by chunk.
constexpr std::size_t kChunk = std::size_t{64} << 20;
}  // namespace

void fill_device_pattern(Device& dev, Stream& stream, std::byte* dst, std::size_t bytes, std::uint64_t seed) {
  const auto stage = dev.allocate_host(std::min(bytes, kChunk), true);
  auto* host = static_cast<std::byte*>(stage->data());
  for (std::size_t pos = 0; pos < bytes; pos += kChunk) {
    const std::size_t n = std::min(kChunk, bytes - pos);
    fill_pattern(std::span(host, n), seed, pos);
    stream.copy({dst + pos, host, n});
    stream.synchronize();  // the staging chunk is reused next
  }
}

std::optional<DeviceMismatch> find_device_pattern_mismatch(Device& dev, Stream& stream, const std::byte* src,
                                                          std::size_t bytes, std::uint64_t seed) {
  const auto stage = dev.allocate_host(std::min(bytes, kChunk), true);
  auto* host = static_cast<std::byte*>(stage->data());
  for (std::size_t pos = 0; pos < bytes; pos += kChunk) {
    const std::size_t n = std::min(kChunk, bytes - pos);
    stream.copy({host, src + pos, n});
    stream.synchronize();
    if (auto bad = find_pattern_mismatch(std::span<const std::byte>(host, n), seed, pos)) {
      return DeviceMismatch{*bad, static_cast<std::uint8_t>(host[*bad - pos])};  // *bad is absolute
    }
  }
  return std::nullopt;
}

}  // namespace xb
