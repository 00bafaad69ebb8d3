#pragma once
// What a network interface can carry: its port speed (sysfs `speed`, in Mb/s, as ethtool shows it)
// and, for a PCI NIC, the PCIe path behind it; the narrower decides. RDMA ports likewise, from
// their `rate`.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "judge/ceiling.hpp"

namespace xb {

struct NicCeiling {
  std::string name;         // "eth0"
  std::string pci_address;  // "" for a virtual interface
  Ceiling ceiling;
};

// The interface `name` under a sysfs tree (`/sys` or a synthetic one).
NicCeiling nic_ceiling(const std::filesystem::path& sysfs, std::string_view name);

// An RDMA port, "mlx5_0:1" (port 1 where none is named, as UCX names devices): its `rate` under
// class/infiniband/DEV/ports/N (an InfiniBand or RoCE port) and the PCIe path behind the device;
// the narrower decides.
NicCeiling rdma_port_ceiling(const std::filesystem::path& sysfs, std::string_view device_port);

// Every interface but loopback, sorted by name.
std::vector<NicCeiling> nic_ceilings(const std::filesystem::path& sysfs);

}  // namespace xb
