// The UCX transport module's entry (core/module_entry.hpp) and operations
// (transport/transport_module.hpp), in libxferbench-transport-ucx.so.
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

constexpr XbTransportOps kOps{create, resources};
constexpr XbModule kModule{xb::kModuleInterfaceVersion, kXbTransportKind, "ucx", &kOps};

}  // namespace

extern "C" __attribute__((visibility("default"))) const XbModule* xferbench_module() { return &kModule; }
