#include "judge/storage_ceiling.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string>

#include "core/first_line.hpp"
#include "judge/pcie_path.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

// "ata3" → 3; -1 for any other name.
int ata_port_number(const std::string& name) {
  if (name.size() < 4 || name.compare(0, 3, "ata") != 0) return -1;
  int n = -1;
  const auto [end, error] = std::from_chars(name.data() + 3, name.data() + name.size(), n);
  return error == std::errc() && end == name.data() + name.size() ? n : -1;
}

// The SATA link of port ataN: "6.0 Gbps" → 600 MB/s (8b/10b); "<unknown>" when nothing is linked.
Ceiling sata_link_ceiling(const fs::path& sysfs, const std::string& disk, int port) {
  Ceiling c;
  const fs::path file = sysfs / "class" / "ata_link" / fmt::format("link{}", port) / "sata_spd";
  const std::string text = read_first_line(file);
  double gbps = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), gbps);
  if (error != std::errc() || !(gbps > 0) || std::string_view(end) != " Gbps") {
    c.derivation = fmt::format("{}: SATA link speed not reported ({})", disk, text.empty() ? "no sata_spd" : text);
    return c;
  }
  c.bytes_per_second = gbps * 1e9 * 8.0 / 10.0 / 8.0;
  c.capable_bytes_per_second = c.bytes_per_second;
  c.derivation = fmt::format("{}: SATA link at {} (8b/10b)", disk, text);
  return c;
}

}  // namespace

Ceiling storage_ceiling(const fs::path& sysfs, std::string_view disk_name) {
  const std::string disk(disk_name);
  std::error_code ec;
  const fs::path dir = fs::canonical(sysfs / "class" / "block" / disk, ec);
  if (ec) {
    Ceiling c;
    c.derivation = fmt::format("{}: not in {}: {}", disk, (sysfs / "class" / "block").string(), ec.message());
    return c;
  }
  // Up from the disk: the ataN port it hangs off (SATA), then the first PCI function (its controller).
  int ata_port = -1;
  std::string controller;
  for (fs::path p = dir.parent_path(); p.has_filename() && p != sysfs; p = p.parent_path()) {
    const std::string name = p.filename().string();
    if (ata_port < 0) ata_port = ata_port_number(name);
    if (is_pci_address(name)) {
      controller = name;
      break;
    }
  }
  Ceiling c;
  if (controller.empty()) {
    c.derivation = fmt::format("{}: no PCI controller above it (a virtual or memory-backed disk)", disk);
  } else {
    c = pcie_ceiling_of(sysfs, controller);
    c.derivation = fmt::format("{}: controller {}: {}", disk, controller, c.derivation);
  }
  if (ata_port >= 0) c = narrower_of(sata_link_ceiling(sysfs, disk, ata_port), c);
  return c;
}

}  // namespace xb
