#include "judge/copy_figure.hpp"

#include <fmt/format.h>

#include <optional>

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

Ceiling device_pcie_ceiling(Backend& backend, int index, const std::filesystem::path& sysfs, std::string& device_name) {
  return device_pcie_ceiling(backend.name(), index, backend.open_device(index)->info(), sysfs, device_name);
}

JudgedFigure copy_figure(const CaseResult& c, Backend& backend, const std::filesystem::path& sysfs,
                         const std::string& server) {
  const CopyConfig config = c.config.get<CopyConfig>();
  JudgedFigure f;
  f.facts.path = "copy." + config.direction;
  f.facts.metric = "bandwidth";
  f.facts.server = server;
  f.facts.block_bytes = config.block_bytes;
  // Host memory on both sides (h2h, or devices whose memory is host RAM and that have no link of
  // their own: the cpu backend's arenas): one memory system, whatever the direction is called, so
  // the path kind is copy.h2h and the ceiling is the memory's, once, not a sum over devices.
  std::optional<DeviceInfo> first;  // opened once, only where its memory may be host RAM
  if (backend.capabilities().device_memory_in_host_ram) first = backend.open_device(config.first_device)->info();
  const bool devices_in_host_ram = first && first->pci_address.empty();
  if (config.direction == "h2h" || devices_in_host_ram) {
    f.facts.path = "copy.h2h";
    if (devices_in_host_ram) f.facts.device = first->name;
    f.ceiling = host_copy_ceiling(host_memory_ceiling(sysfs));
    if (config.direction != "h2h") {
      f.ceiling.derivation = fmt::format("{} within host memory ({}::device::{} is host RAM): {}", config.direction,
                                         backend.name(), config.first_device, f.ceiling.derivation);
    }
    return f;
  }
  std::vector<Ceiling> parts;
  for (int i = config.first_device; i < config.first_device + config.devices; ++i) {
    parts.push_back(device_pcie_ceiling(backend, i, sysfs, f.facts.device));
  }
  f.ceiling = sum_of(parts);
  if (config.devices > 1) {
    f.ceiling.derivation = fmt::format("the sum over {} devices (an upper bound where they share an uplink): {}",
                                       config.devices, f.ceiling.derivation);
  }
  return f;
}

}  // namespace xb
