#pragma once
// The memory one endpoint of a transfer moves data into or out of, on either side (xfer, link,
// p2p): host memory (pinned through the backend where it can), device memory of one device, or
// "null" memory (registered, never touched by the CPU: sharp_coll_test's -M null). It fills and
// verifies itself with the verification pattern through the device's own stream where the memory
// is device memory (staged through a host buffer), so the same code runs on the cpu backend and
// on GPUs. Serves as the session server's ExposedMemory too.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "backends/device.hpp"
#include "transport/session.hpp"

namespace xb {

class EndpointMemory : public ExposedMemory {
 public:
  // `device` must outlive the memory. Throws SystemError/Unavailable with the place and size.
  static std::unique_ptr<EndpointMemory> make(Device& device, RegionPlace place, std::uint64_t bytes);

  virtual RegionPlace place() const = 0;
  // Copies between this memory and host memory, through the device stream where needed (the
  // staging pool's copy engine; verification reads device memory back this way).
  virtual void copy_in(std::uint64_t offset, const void* host, std::uint64_t bytes) = 0;
  virtual void copy_out(std::uint64_t offset, void* host, std::uint64_t bytes) = 0;
};

}  // namespace xb
