#include "backends/device_pattern.hpp"

#include <algorithm>
#include <span>

#include "core/error.hpp"
#include "core/pattern.hpp"

namespace xb {
namespace {
constexpr std::uint64_t kStageChunk = std::uint64_t{4} << 20;
}  // namespace

DevicePatternStaging::DevicePatternStaging(Device& dev, std::uint64_t region_bytes)
    : chunk_(std::max<std::uint64_t>(4096, std::min(kStageChunk, (region_bytes + 4095) / 4096 * 4096))) {
  // Pinned: a GPU copies asynchronously only from locked pages.
  try {
    staging_ = dev.allocate_host(2 * chunk_, true);
  } catch (const SystemError&) {
    staging_ = dev.allocate_host(2 * chunk_, false);
  }
  for (auto& e : events_) e = dev.create_event();
}

DevicePatternStaging::~DevicePatternStaging() = default;

std::byte* DevicePatternStaging::stage(std::size_t slot) const {
  return static_cast<std::byte*>(staging_->data()) + slot * chunk_;
}

void DevicePatternStaging::fill(Stream& stream, std::byte* base, std::uint64_t offset, std::uint64_t bytes,
                                std::uint64_t seed) {
  std::array<bool, 2> pending{false, false};
  std::uint64_t k = 0;
  for (std::uint64_t pos = offset; pos < offset + bytes; pos += chunk_, ++k) {
    const std::size_t slot = k % 2;
    const std::uint64_t n = std::min(chunk_, offset + bytes - pos);
    // The stream may still be reading this chunk's previous content.
    if (pending[slot]) events_[slot]->synchronize();
    fill_pattern(std::span(stage(slot), n), seed, pos);
    stream.copy({base + pos, stage(slot), n});
    stream.record(*events_[slot]);
    pending[slot] = true;
  }
  stream.synchronize();
}

std::optional<DeviceMismatch> DevicePatternStaging::find_mismatch(Stream& stream, const std::byte* base,
                                                                  std::uint64_t offset, std::uint64_t bytes,
                                                                  std::uint64_t seed) {
  if (bytes == 0) return std::nullopt;
  const std::uint64_t end = offset + bytes;
  const auto queue = [&](std::uint64_t pos, std::size_t slot) {
    stream.copy({stage(slot), base + pos, std::min(chunk_, end - pos)});
    stream.record(*events_[slot]);
  };
  // Chunk k+1 is read back while chunk k is checked.
  queue(offset, 0);
  std::uint64_t k = 0;
  for (std::uint64_t pos = offset; pos < end; pos += chunk_, ++k) {
    const std::size_t slot = k % 2;
    if (pos + chunk_ < end) queue(pos + chunk_, 1 - slot);
    events_[slot]->synchronize();
    const std::uint64_t n = std::min(chunk_, end - pos);
    if (auto bad = find_pattern_mismatch(std::span<const std::byte>(stage(slot), n), seed, pos)) {
      const auto found = static_cast<std::uint8_t>(stage(slot)[*bad - pos]);  // *bad is absolute
      stream.synchronize();  // the read-ahead must not land in staging after we return
      return DeviceMismatch{*bad, found};
    }
  }
  return std::nullopt;
}

void fill_device_pattern(Device& dev, Stream& stream, std::byte* dst, std::size_t bytes, std::uint64_t seed) {
  DevicePatternStaging(dev, bytes).fill(stream, dst, 0, bytes, seed);
}

std::optional<DeviceMismatch> find_device_pattern_mismatch(Device& dev, Stream& stream, const std::byte* src,
                                                          std::size_t bytes, std::uint64_t seed) {
  return DevicePatternStaging(dev, bytes).find_mismatch(stream, src, 0, bytes, seed);
}

}  // namespace xb
