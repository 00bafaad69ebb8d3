#include "jobs/endpoint/staged_device_memory.hpp"

#include <fmt/format.h>

#include "jobs/endpoint/endpoint_memory.hpp"

namespace xb {
namespace {

class StagedDeviceMemory final : public ExposedMemory {
 public:
  StagedDeviceMemory(Backend& backend, Device& device, std::uint64_t bytes)
      : memory_(EndpointMemory::make(backend, device, RegionPlace::device, bytes)),
        // Pinned by the device's runtime (its stream copies to and from it directly), registered
        // by the session: never the transport's own allocation, which the device may not pin.
        window_(EndpointMemory::make(device, RegionPlace::host, bytes)) {}

  void* data() const override { return window_->data(); }
  std::size_t size() const override { return memory_->size(); }
  std::string description() const override {
    return fmt::format("{}, staged through a {} window", memory_->description(), window_->description());
  }
  // The pattern lives in the device memory: what a write must have reached, what a read starts from.
  void fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    memory_->fill(offset, bytes, seed);
  }
  std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    return memory_->verify(offset, bytes, seed);
  }
  bool staged() const override { return true; }
  // The session checked the range against size(), which both share; the copies check it again.
  void stage(StageDirection direction, std::uint64_t offset, std::uint64_t bytes) override {
    std::byte* window = static_cast<std::byte*>(window_->data()) + offset;
    if (direction == StageDirection::to_memory) {
      memory_->copy_in(offset, window, bytes);
    } else {
      memory_->copy_out(offset, window, bytes);
    }
  }

 private:
  std::unique_ptr<EndpointMemory> memory_;
  std::unique_ptr<EndpointMemory> window_;
};

}  // namespace

std::unique_ptr<ExposedMemory> make_staged_device_memory(Backend& backend, Device& device, std::uint64_t bytes) {
  return std::make_unique<StagedDeviceMemory>(backend, device, bytes);
}

}  // namespace xb
