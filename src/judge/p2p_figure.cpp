#include "judge/p2p_figure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

#include "jobs/p2p/p2p_config.hpp"
#include "judge/copy_figure.hpp"
#include "judge/peer_link_ceiling.hpp"

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

JudgedFigure p2p_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server) {
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
    f.facts.case_metric = "bandwidth_min";  // the matrix: its lowest cell against the narrowest pair
    for (int i = 0; i < *config.devices; ++i) devices.push_back(i);
  } else {
    if (config.from.value_or("").find("::card::") != std::string::npos) {
      f.ceiling.derivation = "a card's dies at once (ascend-dmi -m card) are not judged";
      return f;
    }
    devices = {device_index(config.from.value_or("")), device_index(config.to.value_or(""))};
  }
  // Each device as the job recorded it: its PCIe path and what it reports of its peer links.
  std::vector<Ceiling> pcie;
  std::vector<DeviceInfo> infos;
  const std::vector<DeviceInfo> recorded = config.device_info.value_or(std::vector<DeviceInfo>{});
  for (const int d : devices) {
    const auto info = std::find_if(recorded.begin(), recorded.end(), [d](const DeviceInfo& i) { return i.index == d; });
    if (info == recorded.end()) {
      f.ceiling.derivation = fmt::format("the case does not record device {} (written by an older xferbench)", d);
      return f;
    }
    infos.push_back(*info);
    pcie.push_back(device_pcie_ceiling(config.backend, d, infos.back(), sysfs, f.facts.device));
  }
  // A pair's copy crosses their peer links where they share any, else both PCIe paths. The matrix's
  // lowest cell is bounded by its narrowest pair, and that pair's derivation is the one shown; a
  // pair whose ceiling is unknown leaves the matrix's unknown.
  std::optional<Ceiling> narrowest;
  std::vector<std::string> warnings;
  for (std::size_t a = 0; a < devices.size(); ++a) {
    for (std::size_t b = 0; b < devices.size(); ++b) {
      if (a == b || (!config.devices && a != 0)) continue;  // one pair: its direction only
      Ceiling pair = device_pair_ceiling(infos[a], pcie[a], infos[b], pcie[b]);
      for (auto& w : pair.warnings) {
        if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(std::move(w));
      }
      const bool lower = !narrowest || (narrowest->bytes_per_second &&
                                        (!pair.bytes_per_second || *pair.bytes_per_second < *narrowest->bytes_per_second));
      if (lower) narrowest = std::move(pair);
    }
  }
  if (narrowest) {
    narrowest->warnings = std::move(warnings);
  } else {
    narrowest.emplace().derivation = "no pair of distinct devices";
  }
  // Both ways at once: each link carries the figure in both directions.
  f.ceiling = config.direction == "bidirectional" ? scaled_by(*narrowest, 2, "both ways at once, twice (the links are full duplex): ")
                                                  : *narrowest;
  return f;
}

}  // namespace xb
