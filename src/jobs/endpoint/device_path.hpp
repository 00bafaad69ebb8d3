#pragma once
// Whether a transfer may hand a transport device memory to register, or must stage it through the
// pinned pool; a pure decision, tested without a GPU. Device memory in host RAM (the cpu backend's)
// is always registered; a GPU's only where the transport lists its memory type (UCX built with CUDA
// lists "cuda" in ucp_context_query's memory_types; TCP never: it reads memory with the CPU). A GPU
// pointer handed to a transport that cannot register it would fault or fail.
#include <string>
#include <string_view>
#include <vector>

namespace xb {

class Backend;
class Transport;

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

// For a server exposing device memory to a peer, which can only reach memory the transport registered
// (no pool on the far side): Unavailable "the server cannot expose BACKEND device memory over
// TRANSPORT: WHY" where choose_device_path says stage.
void require_registrable_device_memory(const Backend& backend, Transport& transport);

}  // namespace xb
