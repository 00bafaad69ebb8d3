#pragma once
// The memory one endpoint of a transfer moves data into or out of, on either side (xfer, link,
// p2p): host memory (pinned through the backend where it can), device memory of one device, or
// "null" memory (registered, never touched by the CPU: sharp_coll_test's -M null). It fills and
// verifies itself with the verification pattern through the device's own stream where the memory
// is device memory (staged through a host buffer), so the same code runs on the cpu backend and
// on GPUs. Serves as the session server's ExposedMemory too.
//
// The three places (docs/link.md, "Endpoint memory"):
// - host: Device::allocate_host(bytes, pinned = true); where pinning is refused (mlock limit,
//   cudaHostAlloc failure) it falls back to pageable memory and description() says so and why.
// - device: Device::allocate(bytes). The CPU never dereferences it: fill/verify go through a pinned
//   staging buffer and the device's stream (double-buffered, 4 MiB chunks), copy_in/copy_out
//   through the stream, so a GPU backend needs nothing else.
// - null: an anonymous mapping (MAP_NORESERVE) that the CPU never writes or reads: a source reads
//   the kernel's zero page, a destination's pages appear as the transport writes them. Nothing can
//   fill, verify or copy it: those calls throw std::invalid_argument (jobs refuse --check with null
//   up front, as bad input).
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
  // This overload does not know the backend, so it cannot pick a copy engine: it makes host and
  // null memory; for device memory use the overload below (std::invalid_argument otherwise).
  static std::unique_ptr<EndpointMemory> make(Device& device, RegionPlace place, std::uint64_t bytes);
  // The same, for any place: device memory is copied with the backend's default engine (the first
  // of capabilities().engines) and described as "BACKEND::device::INDEX" ("cpu::device::0").
  static std::unique_ptr<EndpointMemory> make(Backend& backend, Device& device, RegionPlace place,
                                              std::uint64_t bytes);

  // The same, for memory a transport moves: host memory is allocated by the transport where it
  // has an allocator (Transport::allocate_memory: UCX's shared-memory segments, which a peer maps
  // so a put is one copy), described "host (ucx sysv)" and already registered (registration());
  // elsewhere (the TCP transport) and for the other places, as the overload above. Jobs use the
  // registration() when there is one and register data() only otherwise.
  static std::unique_ptr<EndpointMemory> make(Backend& backend, Device& device, RegionPlace place,
                                              std::uint64_t bytes, Transport& transport);

  virtual RegionPlace place() const = 0;
  // Copies between this memory and host memory, through the device stream where needed (the
  // staging pool's copy engine; verification reads device memory back this way).
  virtual void copy_in(std::uint64_t offset, const void* host, std::uint64_t bytes) = 0;
  virtual void copy_out(std::uint64_t offset, void* host, std::uint64_t bytes) = 0;
};

}  // namespace xb
