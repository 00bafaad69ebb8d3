#pragma once
// The memory one endpoint of a transfer (xfer, link, p2p) moves data into or out of, on either
// side; the session server's ExposedMemory too. Three places (docs/link.md, "Endpoint memory"):
// - host: pinned through the backend; where pinning is refused (mlock limit, cudaHostAlloc) it is
//   pageable, and description() says so and why.
// - device: one device's memory, which the CPU never dereferences: fill/verify (the verification
//   pattern) go through a pinned staging buffer and the device's stream (double-buffered, 4 MiB
//   chunks), copy_in/copy_out through the stream, so the same code runs on the cpu backend and GPUs.
// - null: an anonymous MAP_NORESERVE mapping the CPU never touches (sharp_coll_test's -M null): a
//   source reads the zero page, a destination's pages appear as the transport writes them. Fill,
//   verify and copy throw std::invalid_argument (jobs refuse --check with null up front).
// Offsets and lengths are checked against the region (std::out_of_range naming it).
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
  // Host or null memory only: without the backend there is no copy engine (std::invalid_argument).
  static std::unique_ptr<EndpointMemory> make(Device& device, RegionPlace place, std::uint64_t bytes);
  // Any place: device memory copies with the backend's default engine (capabilities().engines'
  // first), described "BACKEND::device::INDEX" ("cpu::device::0").
  static std::unique_ptr<EndpointMemory> make(Backend& backend, Device& device, RegionPlace place,
                                              std::uint64_t bytes);

  // Host memory from Transport::allocate_memory where the transport has one (UCX's shared-memory
  // segments, which a peer maps so a put is one copy): "host (ucx sysv)", already registered, so
  // jobs use registration() when there is one and register data() otherwise. Else as above.
  static std::unique_ptr<EndpointMemory> make(Backend& backend, Device& device, RegionPlace place,
                                              std::uint64_t bytes, Transport& transport);

  virtual RegionPlace place() const = 0;
  // Copies to or from host memory, through the device stream where needed (the staging pool's
  // copy engine; verification reads device memory back this way).
  virtual void copy_in(std::uint64_t offset, const void* host, std::uint64_t bytes) = 0;
  virtual void copy_out(std::uint64_t offset, void* host, std::uint64_t bytes) = 0;
};

}  // namespace xb
