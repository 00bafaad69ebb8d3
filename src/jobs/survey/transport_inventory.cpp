#include "jobs/survey/transport_inventory.hpp"

#include <fmt/format.h>

#ifdef XB_HAVE_UCX
#include "transport/ucx/ucx_inventory.hpp"
#endif

namespace xb {

TransportInventory inspect_transports() {
  TransportInventory inv;
  inv.built = transport_names();
#ifdef XB_HAVE_UCX
  try {
    const UcxInventory ucx = ucx_inventory();
    inv.ucx_version = ucx.version;
    for (const auto& r : ucx.resources) inv.rows.push_back({"ucx/" + r.transport, r.device, r.device_type});
    inv.problems = ucx.problems;
  } catch (const std::exception& e) {
    inv.problems.push_back(fmt::format("ucx: {}", e.what()));
  }
#else
  inv.problems.push_back("ucx: this build has no UCX (pkg-config ucx was not found when it was built)");
#endif
  // The plain TCP transport goes over any interface the kernel routes to.
  inv.rows.push_back({"tcp", "", "network"});
  return inv;
}

}  // namespace xb
