#include "judge/storage_ceiling.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <charconv>
#include <string>
#include <vector>

#include "core/first_line.hpp"
#include "judge/pcie_path.hpp"
#include "storage/storage_inventory.hpp"

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

// The disks a stacked device (device-mapper, md) is built on: each entry of its slaves/ is a disk
// or a partition of one (then the disk is the directory above it). Sorted, without repeats.
std::vector<std::string> disks_under(const fs::path& dir) {
  std::vector<std::string> disks;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / "slaves", ec)) {
    const fs::path slave = fs::canonical(entry.path(), ec);
    if (ec) continue;
    const std::string disk = whole_disk_of(slave).filename().string();
    if (std::find(disks.begin(), disks.end(), disk) == disks.end()) disks.push_back(disk);
  }
  std::sort(disks.begin(), disks.end());
  return disks;
}

Ceiling ceiling_of(const fs::path& sysfs, const std::string& disk, int depth);

// A stacked device's ceiling: its one disk's, or the sum over several (striping is what makes
// them add up; a mirror or a linear volume moves less: the sum is an upper bound, said so).
Ceiling stacked_ceiling(const fs::path& sysfs, const std::string& disk, const std::vector<std::string>& under, int depth) {
  std::vector<Ceiling> parts;
  for (const auto& d : under) parts.push_back(ceiling_of(sysfs, d, depth + 1));
  Ceiling c = sum_of(parts);
  c.derivation = under.size() == 1 ? fmt::format("{} is on {}: {}", disk, under.front(), c.derivation)
                                   : fmt::format("{} is on {} disks ({}), the sum (an upper bound: striped at best): {}",
                                                 disk, under.size(), fmt::join(under, ", "), c.derivation);
  return c;
}

Ceiling ceiling_of(const fs::path& sysfs, const std::string& disk, int depth) {
  std::error_code ec;
  const fs::path dir = fs::canonical(sysfs / "class" / "block" / disk, ec);
  if (ec) {
    Ceiling c;
    c.derivation = fmt::format("{}: not in {}: {}", disk, (sysfs / "class" / "block").string(), ec.message());
    return c;
  }
  // dm and md stacks are a few levels deep (LVM on md on partitions); a loop would be a kernel bug.
  if (const auto under = disks_under(dir); !under.empty() && depth < 8) return stacked_ceiling(sysfs, disk, under, depth);
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

}  // namespace

Ceiling storage_ceiling(const fs::path& sysfs, std::string_view disk) { return ceiling_of(sysfs, std::string(disk), 0); }

}  // namespace xb
