#include "judge/p2p_figure.hpp"

#include <fmt/format.h>

#include <charconv>

#include "jobs/p2p/p2p_config.hpp"
#include "judge/copy_figure.hpp"

namespace xb {
namespace {

// "cpu::device::3" → 3; throws naming the text otherwise.
int device_index(const std::string& name) {
  const auto colon = name.rfind(':');
  int index = -1;
  const char* first = name.data() + (colon == std::string::npos ? 0 : colon + 1);
  const auto [end, error] = std::from_chars(first, name.data() + name.size(), index);
  if (error != std::errc() || end != name.data() + name.size() || index < 0) {
    throw std::runtime_error(fmt::format("'{}' names no device index", name));
  }
  return index;
}

}  // namespace

JudgedFigure p2p_figure(const CaseResult& c, Backend& backend, const std::filesystem::path& sysfs,
                        const std::string& server) {
  const P2pConfig config = c.config.get<P2pConfig>();
  JudgedFigure f;
  f.facts.server = server;
  f.facts.block_bytes = config.size_bytes;
  if (config.scope != "node") {
    f.ceiling.derivation = fmt::format("p2p across {} is judged by the fleet: `xferbench fleet` (docs/fleet.md)", config.scope);
    return f;  // no path kind: unjudged, saying why
  }
  f.facts.path = "p2p";
  std::vector<int> devices;
  if (config.devices) {
    f.facts.case_metric = "bandwidth_min";  // the matrix: its lowest cell against the narrowest device
    for (int i = 0; i < *config.devices; ++i) devices.push_back(i);
  } else {
    devices = {device_index(config.from.value_or("")), device_index(config.to.value_or(""))};
  }
  Ceiling narrowest;
  bool known = true;  // narrower_of keeps a known figure past an unknown one; a path needs every device's
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const Ceiling one = device_pcie_ceiling(backend, devices[k], sysfs, f.facts.device);
    known = known && one.bytes_per_second.has_value();
    narrowest = k == 0 ? one : narrower_of(narrowest, one);
  }
  if (!known) {
    narrowest.bytes_per_second.reset();
    narrowest.capable_bytes_per_second.reset();
  }
  // Both ways at once: each link carries the figure in both directions.
  f.ceiling = config.direction == "bidirectional" ? scaled_by(narrowest, 2, "both ways at once, twice (PCIe is full duplex): ")
                                                  : narrowest;
  return f;
}

}  // namespace xb
