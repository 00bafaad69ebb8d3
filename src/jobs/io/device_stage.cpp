#include "jobs/io/device_stage.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "jobs/io/io_data_path.hpp"
#include "memory/host_buffer.hpp"
#include "memory/kinds.hpp"

namespace xb {

DeviceStage::DeviceStage(Device& device, std::string_view engine, std::size_t slots, std::size_t io_bytes,
                         bool check_reads)
    : stride_(round_up(io_bytes, kHostAlignment)), check_reads_(check_reads) {
  // Pinned, because a device copies only from locked pages asynchronously (cudaMemcpyAsync from
  // pageable memory is a synchronous staging copy), and O_DIRECT needs the page alignment it has.
  bounce_memory_ = device.allocate_host(slots * stride_, true);
  device_memory_ = device.allocate(slots * stride_);
  if (check_reads_) check_memory_ = device.allocate_host(slots * stride_, false);
  for (std::size_t s = 0; s < slots; ++s) {
    bounce_.emplace_back(region(*bounce_memory_, static_cast<std::uint32_t>(s)), io_bytes);
    slots_.push_back({device.create_event(), false, false, 0});
  }
  stream_ = device.create_stream(engine);
}

DeviceStage::~DeviceStage() { drain(*stream_); }

std::byte* DeviceStage::region(const Allocation& a, std::uint32_t slot) const {
  return static_cast<std::byte*>(a.data()) + std::size_t{slot} * stride_;
}

void DeviceStage::land(std::uint32_t slot, std::size_t bytes) {
  Slot& s = slots_.at(slot);
  std::byte* dev = region(*device_memory_, slot);
  stream_->copy({dev, bounce_[slot].data(), bytes});
  // In stream order after the copy in, so it reads what arrived in device memory.
  if (check_reads_) stream_->copy({region(*check_memory_, slot), dev, bytes});
  stream_->record(*s.event);
  s.pending = true;
  s.checked = check_reads_;
  s.bytes = bytes;
}

std::span<const std::byte> DeviceStage::settle(std::uint32_t slot) {
  Slot& s = slots_.at(slot);
  if (!s.pending) return {};
  s.event->synchronize();
  s.pending = false;
  if (!s.checked) return {};
  s.checked = false;
  return {region(*check_memory_, slot), s.bytes};
}

void DeviceStage::from_device(std::uint32_t slot, std::size_t bytes) {
  Slot& s = slots_.at(slot);
  if (s.pending) throw std::logic_error(fmt::format("device stage: slot {} reused before it settled", slot));
  std::byte* dev = region(*device_memory_, slot);
  stream_->copy({dev, bounce_[slot].data(), bytes});
  stream_->copy({bounce_[slot].data(), dev, bytes});
  stream_->record(*s.event);
  s.event->synchronize();
}

}  // namespace xb
