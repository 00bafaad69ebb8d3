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

// The PCI function a `device` link leads to: the link's target, or a function just above it
// (virtio0 under the virtio PCI device); "" for a virtual device (veth, bridge, ifb, rxe).
std::string pci_function_of(const fs::path& device_link) {
  std::error_code ec;
  fs::path device = fs::canonical(device_link, ec);
  for (int up = 0; !ec && up < 3 && device.has_filename(); ++up, device = device.parent_path()) {
    if (is_pci_address(device.filename().string())) return device.filename().string();
  }
  return "";
}

// An RDMA port's `rate`: "200 Gb/sec (4X HDR)". Since EDR the figure is the data rate (64b/66b
// taken off); for SDR, DDR and QDR it is the signalling rate (8b/10b: 40 Gb/sec QDR carries 32)
// and for FDR the 14.0625 Gbaud lanes' signalling (64b/66b).
Ceiling rdma_rate_ceiling(const fs::path& file, const std::string& name) {
  Ceiling c;
  const std::string text = read_first_line(file);
  double gbps = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), gbps);
  if (error != std::errc() || !(gbps > 0) || std::string_view(end).rfind(" Gb/sec", 0) != 0) {
    c.derivation = fmt::format("{}: port rate not reported ({})", name, text.empty() ? "no rate" : text);
    return c;
  }
  const auto named = [&](const char* generation) { return text.find(generation) != std::string::npos; };
  double factor = 1.0;
  std::string encoding = "the data rate";
  if (named(" SDR") || named(" DDR") || named(" QDR")) {
    factor = 8.0 / 10.0;
    encoding = "8b/10b";
  } else if (named(" FDR)")) {
    factor = 64.0 / 66.0;
    encoding = "64b/66b";
  }
  c.bytes_per_second = gbps * 1e9 * factor / 8.0;
  c.capable_bytes_per_second = c.bytes_per_second;
  c.derivation = fmt::format("{}: port at {} ({})", name, text, encoding);
  return c;
}

}  // namespace

NicCeiling rdma_port_ceiling(const fs::path& sysfs, std::string_view device_port) {
  NicCeiling n;
  n.name = std::string(device_port);
  const auto colon = n.name.rfind(':');
  const std::string device = colon == std::string::npos ? n.name : n.name.substr(0, colon);
  const std::string port = colon == std::string::npos ? "1" : n.name.substr(colon + 1);
  const fs::path dir = sysfs / "class" / "infiniband" / device;
  n.ceiling = rdma_rate_ceiling(dir / "ports" / port / "rate", n.name);
  n.pci_address = pci_function_of(dir / "device");
  if (!n.pci_address.empty()) n.ceiling = narrower_of(n.ceiling, pcie_ceiling_of(sysfs, n.pci_address));
  return n;
}

NicCeiling nic_ceiling(const fs::path& sysfs, std::string_view name) {
  NicCeiling n;
  n.name = std::string(name);
  const fs::path dir = sysfs / "class" / "net" / n.name;
  n.ceiling = port_ceiling(dir, n.name);
  n.pci_address = pci_function_of(dir / "device");
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
