#pragma once
// A PCI device's path to its root port, as sysfs reports it, and the ceiling that path puts on
// data to or from the device: the narrowest PCIe link on it (generation × width), with every link
// trained below what both its ends can do named.
//
// A link is reported by both its ends; which port describes which link depends on its type (from
// the PCI Express capability in configuration space): an endpoint, a switch's upstream port and a
// PCIe-to-PCI bridge report the link above them; a root port and a switch's downstream port report
// the link below. So each upstream-facing port's reading is one link, and the port above it gives
// the other end's maximum. Configuration space past the first 64 bytes is root's only: an
// unprivileged run counts every port's reading toward the ceiling but names no link trained low
// above the device itself (its type is unknown), and says so.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judge/ceiling.hpp"

namespace xb {

// The Device/Port Type of the PCI Express Capabilities register (PCIe base spec, 7.5.3.2).
enum class PciePortType {
  unknown = -1,
  endpoint = 0,
  legacy_endpoint = 1,
  root_port = 4,
  upstream_switch_port = 5,
  downstream_switch_port = 6,
  pcie_to_pci_bridge = 7,
  pci_to_pcie_bridge = 8,
  integrated_endpoint = 9,
  event_collector = 10,
};

struct PciePort {
  std::string address;                           // "0000:18:00.0"
  std::optional<double> current_gts, max_gts;    // null: not reported
  int current_width = 0, max_width = 0;          // 0: not reported
  PciePortType type = PciePortType::unknown;
};

struct PciePath {
  std::vector<PciePort> ports;  // the device first, then each bridge above it, the root port last
};

// "0000:18:00.0": a PCI function's directory name in sysfs (domain:bus:device.function).
bool is_pci_address(std::string_view name);

// The path of the device at `address` ("0000:18:00.0", any case) under a sysfs tree (`/sys`, or
// a synthetic one in tests). Throws std::runtime_error naming the device when it is not there.
PciePath read_pcie_path(const std::filesystem::path& sysfs, std::string_view address);

// The port type from a configuration space image (the `config` file's bytes); unknown where the
// capability list is absent, malformed or beyond the bytes given.
PciePortType pcie_port_type(std::string_view config);

Ceiling pcie_ceiling(const PciePath& path);

// read_pcie_path then pcie_ceiling; a device sysfs lacks gives an unknown ceiling saying why.
Ceiling pcie_ceiling_of(const std::filesystem::path& sysfs, std::string_view address);

}  // namespace xb
