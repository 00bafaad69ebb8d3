#include "transport/transport_inventory.hpp"

#include <fmt/format.h>

#include "transport/transport_module.hpp"

namespace xb {

TransportInventory inspect_transports() {
  TransportInventory inv;
  inv.built = transport_names();
  for (const TransportModuleState& m : transport_modules()) {
    if (!m.why_not.empty()) {
      inv.problems.push_back(fmt::format("{}: not here: {}", m.name, m.why_not));
      continue;
    }
    if (m.name == "ucx") inv.ucx_version = m.resources.version;
    for (const auto& r : m.resources.rows) inv.rows.push_back({m.name + "/" + r.transport, r.device, r.kind});
    inv.problems.insert(inv.problems.end(), m.resources.problems.begin(), m.resources.problems.end());
  }
  // The plain TCP transport goes over any interface the kernel routes to.
  inv.rows.push_back({"tcp", "", "network"});
  return inv;
}

}  // namespace xb
