#include "jobs/endpoint/device_endpoint_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <span>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "jobs/endpoint/endpoint_bounds.hpp"

namespace xb {
namespace {

using endpoint_detail::check_range;

// Pattern data moves through two staging chunks of this size: one is generated or checked by the
// CPU while the stream copies the other, and the staging memory stays small for any region.
constexpr std::uint64_t kStageChunk = std::uint64_t{4} << 20;

class DeviceEndpointMemory final : public EndpointMemory {
 public:
  DeviceEndpointMemory(Device& device, std::uint64_t bytes, std::string_view engine, std::string description)
      : device_(device), engine_(engine), description_(std::move(description)), memory_(device.allocate(bytes)),
        bytes_(bytes) {}

  ~DeviceEndpointMemory() override {
    // Copies still queued (a fill that threw half-way) finish before the memory they touch goes.
    if (!stream_) return;
    try {
      stream_->synchronize();
    } catch (...) {
      // Already failing; the copy error is not the one to report.
    }
  }

  void* data() const override { return memory_->data(); }
  std::size_t size() const override { return bytes_; }
  std::string description() const override { return description_; }
  RegionPlace place() const override { return RegionPlace::device; }

  void fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    check_range("fill", offset, bytes, bytes_, description_);
    prepare_staging();
    std::array<bool, 2> pending{false, false};
    std::uint64_t k = 0;
    for (std::uint64_t pos = offset; pos < offset + bytes; pos += kStageChunk, ++k) {
      const std::size_t slot = k % 2;
      const std::uint64_t n = std::min(kStageChunk, offset + bytes - pos);
      // The stream may still be reading this chunk's previous content.
      if (pending[slot]) events_[slot]->synchronize();
      fill_pattern(std::span(stage_byte(slot), n), seed, pos);
      stream_->copy({device_byte(pos), stage_byte(slot), n});
      stream_->record(*events_[slot]);
      pending[slot] = true;
    }
    stream_->synchronize();
  }

  std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    check_range("verify", offset, bytes, bytes_, description_);
    if (bytes == 0) return std::nullopt;
    prepare_staging();
    const std::uint64_t end = offset + bytes;
    auto queue = [&](std::uint64_t pos, std::size_t slot) {
      stream_->copy({stage_byte(slot), device_byte(pos), std::min(kStageChunk, end - pos)});
      stream_->record(*events_[slot]);
    };
    // Chunk k+1 is read back while chunk k is checked.
    queue(offset, 0);
    std::uint64_t k = 0;
    for (std::uint64_t pos = offset; pos < end; pos += kStageChunk, ++k) {
      const std::size_t slot = k % 2;
      if (pos + kStageChunk < end) queue(pos + kStageChunk, 1 - slot);
      events_[slot]->synchronize();
      const std::uint64_t n = std::min(kStageChunk, end - pos);
      if (auto bad = find_pattern_mismatch(std::span<const std::byte>(stage_byte(slot), n), seed, pos)) {
        stream_->synchronize();  // the read-ahead must not land in staging after we return
        return bad;
      }
    }
    return std::nullopt;
  }

  void copy_in(std::uint64_t offset, const void* host, std::uint64_t bytes) override {
    check_range("copy_in", offset, bytes, bytes_, description_);
    prepare_stream();
    stream_->copy({device_byte(offset), host, bytes});
    stream_->synchronize();
  }

  void copy_out(std::uint64_t offset, void* host, std::uint64_t bytes) override {
    check_range("copy_out", offset, bytes, bytes_, description_);
    prepare_stream();
    stream_->copy({host, device_byte(offset), bytes});
    stream_->synchronize();
  }

 private:
  std::byte* device_byte(std::uint64_t offset) const { return static_cast<std::byte*>(memory_->data()) + offset; }
  std::byte* stage_byte(std::size_t slot) const {
    return static_cast<std::byte*>(staging_->data()) + slot * stage_chunk_;
  }

  // Made on first use: a memory that only ever carries transfers needs no stream (on the cpu
  // backend a stream is a worker thread) and no staging.
  void prepare_stream() {
    if (!stream_) stream_ = device_.create_stream(engine_);
  }
  void prepare_staging() {
    prepare_stream();
    if (staging_) return;
    stage_chunk_ = std::min(kStageChunk, (bytes_ + 4095) / 4096 * 4096);
    if (stage_chunk_ == 0) stage_chunk_ = 4096;
    // Pinned: a GPU copies asynchronously only from locked pages.
    try {
      staging_ = device_.allocate_host(2 * stage_chunk_, true);
    } catch (const SystemError&) {
      staging_ = device_.allocate_host(2 * stage_chunk_, false);
    }
    for (auto& e : events_) e = device_.create_event();
  }

  Device& device_;
  std::string engine_;
  std::string description_;
  std::unique_ptr<Allocation> memory_;
  std::uint64_t bytes_;
  std::uint64_t stage_chunk_ = 0;
  std::unique_ptr<Allocation> staging_;
  std::array<std::unique_ptr<Event>, 2> events_;
  // Last, so it is destroyed first: its queued copies end before the memory they touch is freed.
  std::unique_ptr<Stream> stream_;
};

}  // namespace

std::unique_ptr<EndpointMemory> make_device_endpoint_memory(Device& device, std::uint64_t bytes,
                                                            std::string_view engine, std::string description) {
  return std::make_unique<DeviceEndpointMemory>(device, bytes, engine, std::move(description));
}

}  // namespace xb
