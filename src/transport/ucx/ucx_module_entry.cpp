// The UCX transport module's entry point (transport/transport_module.hpp): what the binary finds by
// dlsym in libxferbench-transport-ucx.so.
#include "transport/transport_module.hpp"
#include "transport/ucx/ucx_inventory.hpp"
#include "transport/ucx/ucx_transport.hpp"

namespace {

xb::Transport* create() { return xb::make_ucx_transport().release(); }

void resources(xb::TransportResources& out) {
  const xb::UcxInventory ucx = xb::ucx_inventory();
  out.version = ucx.version;
  for (const auto& r : ucx.resources) out.rows.push_back({r.transport, r.device, r.device_type});
  out.problems = ucx.problems;
}

constexpr XbTransportModule kModule{xb::kTransportInterfaceVersion, "ucx", create, resources};

}  // namespace

extern "C" __attribute__((visibility("default"))) const XbTransportModule* xferbench_transport_module() {
  return &kModule;
}
