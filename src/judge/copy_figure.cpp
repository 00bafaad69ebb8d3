#include "judge/copy_figure.hpp"

#include <fmt/format.h>

#include "jobs/copy/copy_config.hpp"
#include "judge/pcie_path.hpp"

namespace xb {

Ceiling device_pcie_ceiling(Backend& backend, int index, const std::filesystem::path& sysfs, std::string& device_name) {
  const DeviceInfo info = backend.open_device(index)->info();
  if (device_name.empty()) device_name = info.name;
  Ceiling c;
  if (info.pci_address.empty()) {
    c.derivation = fmt::format("{}::device::{} ({}) has no PCI link", backend.name(), index, info.name);
    return c;
  }
  c = pcie_ceiling_of(sysfs, info.pci_address);
  c.derivation = fmt::format("{}::device::{}: {}", backend.name(), index, c.derivation);
  return c;
}

JudgedFigure copy_figure(const CaseResult& c, Backend& backend, const std::filesystem::path& sysfs,
                         const std::string& server) {
  const CopyConfig config = c.config.get<CopyConfig>();
  JudgedFigure f;
  f.facts.path = "copy." + config.direction;
  f.facts.metric = "bandwidth";
  f.facts.server = server;
  f.facts.block_bytes = config.block_bytes;
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
