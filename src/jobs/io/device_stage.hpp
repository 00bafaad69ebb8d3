#pragma once
// The device side of a CPU_GPU io run, one per thread: pinned bounce buffers for the engine, device
// memory behind each, and a stream between them. Reads are pipelined: a landed read's copy is queued
// and the thread goes on; its bounce buffer is reused once the event after that copy has completed.
// Only the device interface is used, so it runs on the cpu backend (a host arena) as on a GPU.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "backends/device.hpp"

namespace xb {

class DeviceStage {
 public:
  // `slots` page-aligned bounce buffers of `io_bytes`. `check_reads`: each landed read is copied back
  // from device memory to a host buffer to be verified (device memory need not be host-visible).
  DeviceStage(Device& device, std::string_view engine, std::size_t slots, std::size_t io_bytes, bool check_reads);
  ~DeviceStage();
  DeviceStage(const DeviceStage&) = delete;
  DeviceStage& operator=(const DeviceStage&) = delete;

  std::span<const std::span<std::byte>> bounce() const { return bounce_; }  // the engine's buffers

  // A read of `bytes` landed in `slot`: queues its copy into device memory (and back, for checking)
  // and the slot's event, without waiting.
  void land(std::uint32_t slot, std::size_t bytes);
  // Waits for the slot's queued device work, so its buffers may be reused. Returns what arrived in
  // device memory (as copied back) when that work was a checked read, else an empty span.
  std::span<const std::byte> settle(std::uint32_t slot);
  // A write's `bytes` made in `slot` go to device memory (standing in for the application that made
  // them there: the interface has no device-side generator) and back, for the engine to write. Waits.
  void from_device(std::uint32_t slot, std::size_t bytes);

 private:
  struct Slot {
    std::unique_ptr<Event> event;
    bool pending = false;  // device work queued and not yet waited for
    bool checked = false;  // that work copied a read back for checking
    std::size_t bytes = 0;
  };
  std::byte* region(const Allocation& a, std::uint32_t slot) const;

  std::size_t stride_;
  bool check_reads_;
  std::unique_ptr<Allocation> bounce_memory_;  // pinned host memory from the device runtime
  std::unique_ptr<Allocation> device_memory_;
  std::unique_ptr<Allocation> check_memory_;   // pageable host memory, only with check_reads
  std::vector<std::span<std::byte>> bounce_;
  std::vector<Slot> slots_;
  // Last, so destroyed first: a stream finishes (or abandons) its copies before their memory is freed.
  std::unique_ptr<Stream> stream_;
};

}  // namespace xb
