#pragma once
// The device side of a CPU_GPU io run, one per thread: pinned bounce buffers the engine reads into
// and writes from, a region of device memory behind each, and a device stream moving data between
// them. Reads are pipelined: the copy of a bounce buffer into device memory is queued as soon as
// its IO lands and the thread goes on with the next IOs; a bounce buffer is reused only once the
// event recorded after its copy has completed. Only the device interface is used, so the same code
// runs on the cpu backend (device memory is a host arena) and on a GPU backend.
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
  // `slots` bounce buffers of `io_bytes`, each starting on a page. With `check_reads`, every landed
  // read is also copied back from device memory into a host buffer, so what arrived there can be
  // verified (the only way that also works where device memory is not host-visible).
  DeviceStage(Device& device, std::string_view engine, std::size_t slots, std::size_t io_bytes, bool check_reads);
  ~DeviceStage();
  DeviceStage(const DeviceStage&) = delete;
  DeviceStage& operator=(const DeviceStage&) = delete;

  // The bounce buffers: the engine's buffer pool.
  std::span<const std::span<std::byte>> bounce() const { return bounce_; }

  // A read of `bytes` landed in bounce buffer `slot`: queues its copy into the slot's device region
  // (and the copy back for checking) and records the slot's event. Returns without waiting.
  void land(std::uint32_t slot, std::size_t bytes);
  // Waits until the slot's queued device work is done, so its buffers may be reused. Returns the
  // bytes that arrived in device memory (as copied back) when that work was a checked read, else an
  // empty span.
  std::span<const std::byte> settle(std::uint32_t slot);
  // A write's data: the `bytes` generated in bounce buffer `slot` are put into the slot's device
  // region (standing in for the application that produced them there; the interface has no device-
  // side generator) and copied from device memory back into the bounce buffer, which the engine then
  // writes. Waits for both copies.
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
  // Last, so it is destroyed first: a stream finishes (or abandons) its copies before the memory
  // they touch is freed.
  std::unique_ptr<Stream> stream_;
};

}  // namespace xb
