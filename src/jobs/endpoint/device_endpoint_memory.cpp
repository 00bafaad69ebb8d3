#include "jobs/endpoint/device_endpoint_memory.hpp"

#include <fmt/format.h>

#include <optional>

#include "backends/device_pattern.hpp"
#include "jobs/endpoint/endpoint_bounds.hpp"

namespace xb {
namespace {

using endpoint_detail::check_range;

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
    staging_->fill(*stream_, device_byte(0), offset, bytes, seed);
  }

  std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    check_range("verify", offset, bytes, bytes_, description_);
    prepare_staging();
    const auto bad = staging_->find_mismatch(*stream_, device_byte(0), offset, bytes, seed);
    return bad ? std::optional(bad->offset) : std::nullopt;
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
  // Made on first use: a memory that only ever carries transfers needs no stream (on the cpu
  // backend a stream is a worker thread) and no staging.
  void prepare_stream() {
    if (!stream_) stream_ = device_.create_stream(engine_);
  }
  void prepare_staging() {
    prepare_stream();
    if (!staging_) staging_.emplace(device_, bytes_);
  }

  Device& device_;
  std::string engine_;
  std::string description_;
  std::unique_ptr<Allocation> memory_;
  std::uint64_t bytes_;
  std::optional<DevicePatternStaging> staging_;
  // Last, so it is destroyed first: its queued copies end before the memory they touch is freed.
  std::unique_ptr<Stream> stream_;
};

}  // namespace

std::unique_ptr<EndpointMemory> make_device_endpoint_memory(Device& device, std::uint64_t bytes,
                                                            std::string_view engine, std::string description) {
  return std::make_unique<DeviceEndpointMemory>(device, bytes, engine, std::move(description));
}

}  // namespace xb
