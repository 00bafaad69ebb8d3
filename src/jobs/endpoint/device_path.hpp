#pragma once
// Whether a transfer may hand a transport device memory to register, or must stage it through host
// memory (device memory is registered with UCX when its build has CUDA support, staged through
// the pinned pool otherwise, and the result says which). A pure decision, so it is tested
// without a GPU: device memory the CPU can address (the cpu backend's, host RAM) is always
// registered; a GPU's only where the transport registers that memory type (UCX built with CUDA
// lists "cuda" in ucp_context_query's memory_types; the TCP transport never: it reads memory with
// the CPU). Handing a GPU pointer to a transport that cannot register it would fault or fail.
#include <string>
#include <string_view>
#include <vector>

namespace xb {

struct DevicePathInput {
  std::string_view backend;              // "cuda", "cpu": the backend that allocated the memory
  bool device_memory_in_host_ram = false;  // Capabilities::device_memory_in_host_ram
  std::string_view transport;            // "ucx", "tcp"
  std::vector<std::string> transport_memory_types;  // Transport::device_memory_types()
};

struct DevicePath {
  bool registered = false;
  // For the result's config "device_path": "registered" or "staged through the pinned pool: WHY".
  std::string text;
};

// The memory type name a transport would list for a backend's device memory ("cuda" for cuda,
// "rocm" for rocm and hip; the backend's own name otherwise).
std::string device_memory_type(std::string_view backend);

DevicePath choose_device_path(const DevicePathInput& input);

}  // namespace xb

namespace xb {
class Backend;
class Transport;
// For a server exposing device memory to a peer, which can only put into or get from memory the
// transport registered (there is no pool on the far side): throws Unavailable "the server cannot
// expose BACKEND device memory over TRANSPORT: WHY" where choose_device_path says stage.
void require_registrable_device_memory(const Backend& backend, Transport& transport);

}  // namespace xb
