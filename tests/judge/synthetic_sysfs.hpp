#pragma once
// A sysfs tree built in a temporary directory, laid out as the kernel lays out /sys: PCI functions
// nested under their bridges in devices/pciDDDD:BB/, each with its link attributes and a
// configuration space holding a PCI Express capability; bus/pci/devices/ links to them; and
// class/net/ interfaces. The code under test reads it exactly as it reads /sys.
#include <filesystem>
#include <string>

#include "judge/pcie_path.hpp"
#include "support/temp_dir.hpp"

namespace xb::test {

struct FakePort {
  std::string address;          // "0000:01:00.0"
  std::string current_speed;    // "16.0 GT/s PCIe" (empty: no attribute)
  int current_width = 0;        // 0: no attribute
  std::string max_speed;
  int max_width = 0;
  PciePortType type = PciePortType::endpoint;
  bool config_root_only = false;  // the config file holds the first 64 bytes only (unprivileged)
};

class SyntheticSysfs {
 public:
  SyntheticSysfs();
  const std::filesystem::path& root() const { return root_; }
  // Adds a function under `parent` (a directory returned before) or under the host bridge when
  // `parent` is empty; returns its directory.
  std::filesystem::path add(const FakePort& port, const std::filesystem::path& parent = {});
  // class/net/NAME with `speed` (empty: no attribute) and a device link to `pci_dir` (empty: a
  // virtual interface).
  void add_nic(const std::string& name, const std::string& speed, const std::filesystem::path& pci_dir = {},
               const std::string& operstate = "up");
  // A disk: `under` (a directory below devices/, made if absent) / block / NAME, linked from
  // class/block/NAME; returns its directory.
  std::filesystem::path add_disk(const std::filesystem::path& under, const std::string& name);
  // class/infiniband/DEVICE/ports/PORT/rate holding `rate` ("200 Gb/sec (4X HDR)"; empty: no
  // attribute) and a device link to `pci_dir` (empty: a software device such as rxe).
  void add_rdma_port(const std::string& device, int port, const std::string& rate, const std::filesystem::path& pci_dir = {});
  // class/ata_link/linkN/sata_spd holding `speed` ("6.0 Gbps").
  void add_sata_link(int port, const std::string& speed);

 private:
  TempDir dir_;
  std::filesystem::path root_;
};

// "16.0 GT/s PCIe" for generation 4, as a current kernel writes it.
std::string speed_text(int generation);

}  // namespace xb::test
