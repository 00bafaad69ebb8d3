#include "judge/fleet_floor.hpp"

#include <fmt/format.h>

#include "judge/route_devices.hpp"

namespace xb {

FleetFloorTerms fleet_floor(const ExpectationLayers& layers, std::uint64_t size, const std::string& server) {
  FleetFloorTerms t;
  FigureFacts facts;
  facts.path = "fleet";
  facts.server = server;
  facts.block_bytes = size;
  facts.ceiling_bytes_per_second = 1.0;  // a unit ceiling: a share rule resolves to its share
  const auto resolved = resolve_expectation(layers.in_order(), facts);
  if (!resolved) return t;
  const ExpectRule& r = *resolved->rule;
  if (r.ceiling_fraction) t.share = *r.ceiling_fraction * r.fail_below;
  else t.gbps = resolved->expected_bytes_per_second / 1e9 * r.fail_below;
  t.rule = fmt::format("{} ({}: {}), FAIL below {}", r.text, layer_name(r.layer), r.origin, r.fail_below);
  return t;
}

NicCeiling nic_holding(const std::filesystem::path& sysfs, const std::string& address) {
  std::string why;
  const std::string name = interface_holding(address, why);
  if (name.empty()) {
    NicCeiling n;
    n.ceiling.derivation = why;
    return n;
  }
  return nic_ceiling(sysfs, name);
}

}  // namespace xb
