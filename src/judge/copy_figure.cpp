#include "judge/copy_figure.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
  double sum = 0, capable = 0;
  bool known = true;
  std::vector<std::string> parts;
  for (int i = config.first_device; i < config.first_device + config.devices; ++i) {
    const DeviceInfo info = backend.open_device(i)->info();
    if (f.facts.device.empty()) f.facts.device = info.name;
    if (info.pci_address.empty()) {
      known = false;
      parts.push_back(fmt::format("{}::device::{} ({}) has no PCI link", backend.name(), i, info.name));
      continue;
    }
    const Ceiling one = pcie_ceiling_of(sysfs, info.pci_address);
    parts.push_back(fmt::format("{}::device::{}: {}", backend.name(), i, one.derivation));
    f.ceiling.warnings.insert(f.ceiling.warnings.end(), one.warnings.begin(), one.warnings.end());
    if (!one.bytes_per_second) {
      known = false;
      continue;
    }
    sum += *one.bytes_per_second;
    capable += one.capable_bytes_per_second.value_or(*one.bytes_per_second);
  }
  if (known && config.devices > 0) {
    f.ceiling.bytes_per_second = sum;
    f.ceiling.capable_bytes_per_second = capable;
  }
  f.ceiling.derivation = config.devices > 1 ? fmt::format("the sum over {} devices (an upper bound where they share an "
                                                          "uplink): {}", config.devices, fmt::join(parts, "; "))
                                            : fmt::format("{}", fmt::join(parts, "; "));
  return f;
}

}  // namespace xb
