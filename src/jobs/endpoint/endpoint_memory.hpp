#pragma once
// The memory either endpoint of a transfer (xfer, link, p2p) moves data into or out of, in one of
// three places (docs/link.md, "Endpoint memory"): host (pinned; pageable where pinning is refused,
// and description() says why), device (never dereferenced by the CPU: fill, verify and copies go
// through the device's stream, so the same code runs on the cpu backend and GPUs) and null (a
// MAP_NORESERVE mapping never touched, sharp_coll_test's -M null: fill, verify and copy throw
// std::invalid_argument). Ranges are checked against the region (std::out_of_range naming it).
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

  // Host memory from Transport::allocate_memory where it has one (UCX's shared-memory segments, which
  // a peer maps so a put is one copy): "host (ucx sysv)", already registered (registration()).
  static std::unique_ptr<EndpointMemory> make(Backend& backend, Device& device, RegionPlace place,
                                              std::uint64_t bytes, Transport& transport);

  virtual RegionPlace place() const = 0;
  // Copies to or from host memory, through the device stream where needed.
  virtual void copy_in(std::uint64_t offset, const void* host, std::uint64_t bytes) = 0;
  virtual void copy_out(std::uint64_t offset, void* host, std::uint64_t bytes) = 0;
};

// The registration `transport` moves `memory` with: the memory's own where the transport allocated
// it, else a new one, kept in `owned` (which the caller holds while the registration is used).
LocalRegion& transport_registration(EndpointMemory& memory, Transport& transport, std::unique_ptr<LocalRegion>& owned);

}  // namespace xb
