#include "judge/nic_ceiling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "core/first_line.hpp"
#include "judge/pcie_path.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

// The port's speed: `speed` holds Mb/s; -1 (or a read that fails: EINVAL) where the link is down
// or the driver does not say (most virtual NICs).
Ceiling port_ceiling(const fs::path& dir, const std::string& name) {
  Ceiling c;
  const std::string text = read_first_line(dir / "speed");
  long long mbps = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), mbps);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || mbps <= 0) {
    const std::string state = read_first_line(dir / "operstate");
    c.derivation = fmt::format("{}: port speed not reported ({}{})", name, text.empty() ? "no speed" : "speed " + text,
                               state.empty() ? "" : ", link " + state);
    return c;
  }
  c.bytes_per_second = static_cast<double>(mbps) * 1e6 / 8.0;
  c.capable_bytes_per_second = c.bytes_per_second;
  c.derivation = fmt::format("{}: port at {} Mb/s", name, mbps);
  return c;
}

}  // namespace

NicCeiling nic_ceiling(const fs::path& sysfs, std::string_view name) {
  NicCeiling n;
  n.name = std::string(name);
  const fs::path dir = sysfs / "class" / "net" / n.name;
  n.ceiling = port_ceiling(dir, n.name);
  // A PCI NIC's `device` links to its PCI function, or to a function's child (virtio0 under the
  // virtio PCI device); a virtual interface (veth, bridge, ifb) has none.
  std::error_code ec;
  fs::path device = fs::canonical(dir / "device", ec);
  for (int up = 0; !ec && up < 3 && device.has_filename(); ++up, device = device.parent_path()) {
    if (is_pci_address(device.filename().string())) {
      n.pci_address = device.filename().string();
      break;
    }
  }
  if (!n.pci_address.empty()) n.ceiling = narrower_of(n.ceiling, pcie_ceiling_of(sysfs, n.pci_address));
  return n;
}

std::vector<NicCeiling> nic_ceilings(const fs::path& sysfs) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sysfs / "class" / "net", ec)) {
    const std::string name = entry.path().filename().string();
    if (name != "lo") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::vector<NicCeiling> out;
  for (const auto& name : names) out.push_back(nic_ceiling(sysfs, name));
  return out;
}

}  // namespace xb
