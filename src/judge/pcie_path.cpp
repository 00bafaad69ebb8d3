#include "judge/pcie_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "core/first_line.hpp"
#include "judge/pcie_rate.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

int read_width(const fs::path& file) {
  const std::string text = read_first_line(file);
  int width = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), width);
  if (error != std::errc() || end != text.data() + text.size() || width < 0 || width > 32) return 0;
  return width;
}

PciePort read_port(const fs::path& dir) {
  PciePort p;
  p.address = dir.filename().string();
  p.current_gts = parse_pcie_link_speed(read_first_line(dir / "current_link_speed"));
  p.max_gts = parse_pcie_link_speed(read_first_line(dir / "max_link_speed"));
  p.current_width = read_width(dir / "current_link_width");
  p.max_width = read_width(dir / "max_link_width");
  // Configuration space: 4 KiB at most; an unprivileged read gets the first 64 bytes only.
  std::ifstream in(dir / "config", std::ios::binary);
  std::string config;
  config.resize(4096);
  in.read(config.data(), static_cast<std::streamsize>(config.size()));
  config.resize(static_cast<std::size_t>(in.gcount()));
  p.type = pcie_port_type(config);
  return p;
}

bool faces_up(PciePortType t) {
  return t == PciePortType::endpoint || t == PciePortType::legacy_endpoint ||
         t == PciePortType::upstream_switch_port || t == PciePortType::pcie_to_pci_bridge;
}

bool faces_down(PciePortType t) {
  return t == PciePortType::root_port || t == PciePortType::downstream_switch_port ||
         t == PciePortType::pci_to_pcie_bridge;
}

struct Link {
  const PciePort* lower;
  const PciePort* upper;  // null: the port above is not on the path or not known as its partner
  double gts;
  int width;
  std::optional<double> capable_gts;  // the best both ends support; null where unknown
  std::optional<int> capable_width;
  double bytes_per_second() const { return pcie_lane_bytes_per_second(gts) * width; }
  std::optional<double> capable_bytes_per_second() const {
    if (!capable_gts || !capable_width) return std::nullopt;
    return pcie_lane_bytes_per_second(*capable_gts) * *capable_width;
  }
};

std::string link_where(const Link& l) {
  return l.upper == nullptr ? l.lower->address : fmt::format("{} ↔ {}", l.lower->address, l.upper->address);
}

}  // namespace

bool is_pci_address(std::string_view name) {
  // The domain has four hex digits, or more (Intel VMD's 10000:e0:17.0); then bus:device.function.
  const auto hex = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
  };
  const std::size_t first = name.find(':');
  if (first == std::string_view::npos || first < 4 || name.size() != first + 8) return false;
  const std::string_view rest = name.substr(first + 1);  // "18:00.0"
  return hex(name.substr(0, first)) && hex(rest.substr(0, 2)) && rest[2] == ':' && hex(rest.substr(3, 2)) &&
         rest[5] == '.' && rest[6] >= '0' && rest[6] <= '7';
}

PciePortType pcie_port_type(std::string_view config) {
  const auto byte = [&](std::size_t at) { return static_cast<unsigned>(static_cast<unsigned char>(config[at])); };
  constexpr std::size_t kHeader = 0x40;
  if (config.size() < kHeader) return PciePortType::unknown;
  const unsigned status = byte(0x06) | (byte(0x07) << 8);
  if ((status & 0x10u) == 0) return PciePortType::unknown;  // no capability list
  std::size_t at = byte(0x34) & 0xFCu;
  for (int hops = 0; hops < 48 && at >= kHeader && at + 4 <= config.size(); ++hops) {
    if (byte(at) == 0x10) {  // PCI Express capability
      const unsigned type = (byte(at + 2) >> 4) & 0xFu;
      switch (type) {
        case 0: case 1: case 4: case 5: case 6: case 7: case 8: case 9: case 10:
          return static_cast<PciePortType>(type);
        default:
          return PciePortType::unknown;
      }
    }
    at = byte(at + 1) & 0xFCu;
  }
  return PciePortType::unknown;
}

PciePath read_pcie_path(const fs::path& sysfs, std::string_view address) {
  std::string name(address);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  const fs::path link = sysfs / "bus" / "pci" / "devices" / name;
  std::error_code ec;
  fs::path dir = fs::canonical(link, ec);
  if (ec) throw std::runtime_error(fmt::format("PCI device {}: not in {}: {}", name, link.parent_path().string(), ec.message()));
  PciePath path;
  while (is_pci_address(dir.filename().string())) {
    path.ports.push_back(read_port(dir));
    dir = dir.parent_path();
  }
  return path;
}

Ceiling pcie_ceiling(const PciePath& path) {
  Ceiling c;
  if (path.ports.empty()) {
    c.derivation = "no PCI device";
    return c;
  }
  const std::string& device = path.ports.front().address;
  std::vector<Link> links;
  bool types_unknown = false;
  for (std::size_t i = 0; i < path.ports.size(); ++i) {
    const PciePort& p = path.ports[i];
    if (!p.current_gts || p.current_width == 0 || pcie_lane_bytes_per_second(*p.current_gts) == 0) continue;
    // A root port's or a switch's downstream port's reading is the link below it, already read
    // from the port beneath (its upstream-facing partner) on this path.
    if (i > 0 && faces_down(p.type)) continue;
    const PciePort* above = i + 1 < path.ports.size() ? &path.ports[i + 1] : nullptr;
    // The device itself is an endpoint whatever its type reads: the port above is its partner.
    const bool paired = i == 0 || faces_up(p.type);
    if (i > 0 && p.type == PciePortType::unknown) types_unknown = true;
    Link l{&p, paired ? above : nullptr, *p.current_gts, p.current_width, std::nullopt, std::nullopt};
    if (paired && p.max_gts && p.max_width > 0) {
      l.capable_gts = p.max_gts;
      l.capable_width = p.max_width;
      if (above != nullptr && above->max_gts && above->max_width > 0) {
        l.capable_gts = std::min(*p.max_gts, *above->max_gts);
        l.capable_width = std::min(p.max_width, above->max_width);
      } else {
        l.upper = nullptr;  // one end's maximum only: not enough to call the link trained low
      }
    }
    if (!paired || !l.capable_gts) {  // a reading whose partner is unknown bounds the path as it is
      l.capable_gts = l.gts;
      l.capable_width = l.width;
    }
    links.push_back(l);
  }
  if (links.empty()) {
    c.derivation = fmt::format("no PCIe link reported for {} (a virtual or integrated device, or a kernel without "
                               "the link attributes)", device);
    return c;
  }
  const auto narrowest = std::min_element(links.begin(), links.end(), [](const Link& a, const Link& b) {
    return a.bytes_per_second() < b.bytes_per_second();
  });
  c.bytes_per_second = narrowest->bytes_per_second();
  double capable = narrowest->capable_bytes_per_second().value_or(*c.bytes_per_second);
  for (const Link& l : links) capable = std::min(capable, l.capable_bytes_per_second().value_or(l.bytes_per_second()));
  c.capable_bytes_per_second = capable;
  c.derivation = fmt::format("PCIe {} ({} GT/s x {} lanes, {}) at {}, the narrowest of {} link reading(s) from {} up to {}",
                             pcie_link_name(narrowest->gts, narrowest->width), narrowest->gts, narrowest->width,
                             pcie_encoding(narrowest->gts), link_where(*narrowest), links.size(), device,
                             path.ports.back().address);
  for (const Link& l : links) {
    if (l.upper == nullptr || !l.capable_gts || !l.capable_width) continue;
    if (l.gts < *l.capable_gts || l.width < *l.capable_width) {
      c.warnings.push_back(fmt::format("PCIe link {} runs at {} but both its ends can run {}{}", link_where(l),
                                       pcie_link_name(l.gts, l.width), pcie_link_name(*l.capable_gts, *l.capable_width),
                                       l.width < *l.capable_width ? "" : " (a device at rest may slow its link to save power: read it again under load)"));
    }
  }
  if (types_unknown) {
    c.warnings.push_back(fmt::format("the PCIe port types above {} are unknown (their configuration space is root's "
                                     "to read): a link trained low above the device is not named",
                                     device));
  }
  return c;
}

Ceiling pcie_ceiling_of(const fs::path& sysfs, std::string_view address) {
  try {
    return pcie_ceiling(read_pcie_path(sysfs, address));
  } catch (const std::runtime_error& e) {
    Ceiling c;
    c.derivation = e.what();
    return c;
  }
}

}  // namespace xb
