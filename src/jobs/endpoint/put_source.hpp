#pragma once
// One rank's side of cross-node puts (p2p --mpi, fleet), made once per run: its own transport, its
// device memory (the source of every put) and that memory's registration. Device memory goes to the
// transport as it is, with no staging pool: Unavailable, naming why, where the transport cannot
// register it (require_registrable_device_memory).
#include <cstdint>
#include <memory>
#include <string>

#include "backends/device.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "transport/transport.hpp"

namespace xb {

class PutSource {
 public:
  PutSource(Backend& backend, int device, std::uint64_t bytes, const std::string& transport);
  ~PutSource();
  PutSource(const PutSource&) = delete;
  PutSource& operator=(const PutSource&) = delete;

  Transport& transport() { return *transport_; }
  LocalRegion& region() { return *local_; }
  EndpointMemory& memory() { return *memory_; }

 private:
  // In destruction order's reverse: the registration goes before the memory, the memory before the
  // device and the transport.
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<Device> device_;
  std::unique_ptr<EndpointMemory> memory_;
  std::unique_ptr<LocalRegion> own_registration_;  // when the transport did not allocate the memory
  LocalRegion* local_ = nullptr;
};

}  // namespace xb
