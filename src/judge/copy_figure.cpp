#include "judge/copy_figure.hpp"

#include <fmt/format.h>

#include <vector>

#include "jobs/copy/copy_config.hpp"
#include "judge/memory_ceiling.hpp"
#include "judge/pcie_path.hpp"

namespace xb {

Ceiling device_pcie_ceiling(std::string_view backend, int index, const DeviceInfo& info,
                            const std::filesystem::path& sysfs, std::string& device_name) {
  if (device_name.empty()) device_name = info.name;
  Ceiling c;
  if (info.pci_address.empty()) {
    c.derivation = fmt::format("{}::device::{} ({}) has no PCI link", backend, index, info.name);
    return c;
  }
  c = pcie_ceiling_of(sysfs, info.pci_address);
  c.derivation = fmt::format("{}::device::{}: {}", backend, index, c.derivation);
  return c;
}

JudgedFigure copy_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server) {
  const CopyConfig config = c.config.get<CopyConfig>();
  JudgedFigure f;
  f.facts.path = "copy." + config.direction;
  f.facts.metric = "bandwidth";
  f.facts.server = server;
  f.facts.block_bytes = config.block_bytes;
  // Host memory on both sides (h2h, or devices whose memory is host RAM and that have no link of
  // their own: the cpu backend's arenas): one memory system, whatever the direction is called, so
  // the path kind is copy.h2h and the ceiling is the memory's, once, not a sum over devices.
  const std::vector<DeviceInfo> infos = config.device_info.value_or(std::vector<DeviceInfo>{});
  const bool devices_in_host_ram =
      config.device_memory_in_host_ram.value_or(false) && !infos.empty() && infos.front().pci_address.empty();
  if (config.direction == "h2h" || devices_in_host_ram) {
    f.facts.path = "copy.h2h";
    if (devices_in_host_ram) f.facts.device = infos.front().name;
    f.ceiling = host_copy_ceiling(host_memory_ceiling(sysfs));
    if (config.direction != "h2h") {
      f.ceiling.derivation = fmt::format("{} within host memory ({}::device::{} is host RAM): {}", config.direction,
                                         config.backend, config.first_device, f.ceiling.derivation);
    }
    return f;
  }
  if (infos.size() != static_cast<std::size_t>(config.devices)) {
    f.ceiling.derivation = "the case does not record its devices (written by an older xferbench)";
    return f;
  }
  std::vector<Ceiling> parts;
  for (int r = 0; r < config.devices; ++r) {
    parts.push_back(device_pcie_ceiling(config.backend, config.first_device + r, infos[static_cast<std::size_t>(r)],
                                        sysfs, f.facts.device));
  }
  f.ceiling = sum_of(parts);
  if (config.devices > 1) {
    f.ceiling.derivation = fmt::format("the sum over {} devices (an upper bound where they share an uplink): {}",
                                       config.devices, f.ceiling.derivation);
  }
  return f;
}

}  // namespace xb
