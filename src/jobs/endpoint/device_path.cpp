#include "jobs/endpoint/device_path.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "backends/device.hpp"
#include "core/error.hpp"
#include "transport/transport.hpp"

namespace xb {

std::string device_memory_type(std::string_view backend) {
  return backend == "hip" ? "rocm" : std::string(backend);
}

DevicePath choose_device_path(const DevicePathInput& in) {
  if (in.device_memory_in_host_ram) return {true, "registered"};
  const std::string type = device_memory_type(in.backend);
  const auto& types = in.transport_memory_types;
  if (std::find(types.begin(), types.end(), type) != types.end()) return {true, "registered"};
  std::string why;
  if (types.empty()) {
    why = in.transport == "ucx"
              ? fmt::format("this UCX cannot register {} memory (built without {} support: ucp_context_query lists "
                            "host memory only)",
                            type, type)
              : fmt::format("the {} transport reaches host memory only", in.transport);
  } else {
    why = fmt::format("the {} transport registers {} memory, not {}", in.transport, fmt::join(types, ", "), type);
  }
  return {false, "staged through the pinned pool: " + why};
}

void require_registrable_device_memory(const Backend& backend, Transport& transport) {
  const DevicePath path = choose_device_path({backend.name(), backend.capabilities().device_memory_in_host_ram,
                                              transport.name(), transport.device_memory_types()});
  if (path.registered) return;
  const std::string prefix = "staged through the pinned pool: ";
  throw Unavailable(fmt::format("the server cannot expose {} device memory over {}: {}", backend.name(),
                                transport.name(), path.text.substr(prefix.size())));
}

}  // namespace xb
