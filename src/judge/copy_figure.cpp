#include "judge/copy_figure.hpp"

#include <fmt/format.h>

#include "jobs/copy/copy_config.hpp"
#include "judge/pcie_path.hpp"

namespace xb {

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
    const DeviceInfo info = backend.open_device(i)->info();
    if (f.facts.device.empty()) f.facts.device = info.name;
    Ceiling one;
    if (info.pci_address.empty()) {
      one.derivation = fmt::format("{}::device::{} ({}) has no PCI link", backend.name(), i, info.name);
    } else {
      one = pcie_ceiling_of(sysfs, info.pci_address);
      one.derivation = fmt::format("{}::device::{}: {}", backend.name(), i, one.derivation);
    }
    parts.push_back(std::move(one));
  }
  f.ceiling = sum_of(parts);
  if (config.devices > 1) {
    f.ceiling.derivation = fmt::format("the sum over {} devices (an upper bound where they share an uplink): {}",
                                       config.devices, f.ceiling.derivation);
  }
  return f;
}

}  // namespace xb
