#pragma once
// Where things are in this machine, from hwloc: packages, cores, NUMA nodes with their memory and
// CPUs, and the PCI devices that matter to data paths (storage, network, display/3D, accelerators)
// with the NUMA node they hang off and their OS names (eth0, nvme0n1, …). Read by `xferbench
// devices` (and usable by any backend without its own placement). Facts only, no formatting.
#include <cstdint>
#include <string>
#include <vector>

namespace xb {

struct NumaNodeInfo {
  unsigned os_index = 0;
  std::uint64_t memory_bytes = 0;  // local memory of the node
  int cores = 0;
  int pus = 0;                     // hardware threads
  std::string cpus;                // "0-15,32-47"
};

struct PciDeviceInfo {
  std::string address;   // "0000:18:00.0"
  unsigned class_id = 0;  // PCI class and subclass, 0x0302
  std::string kind;      // "storage", "network", "display/3D", "accelerator", "processor"
  unsigned vendor_id = 0, device_id = 0;
  int numa_node = -1;    // -1: not attached to one NUMA node (or unknown)
  std::string os_names;  // "eth0", "nvme0n1", "mlx5_0" (comma-separated), where the kernel named it
};

struct TopologyInfo {
  int packages = 0, cores = 0, pus = 0;
  std::uint64_t memory_bytes = 0;
  std::vector<NumaNodeInfo> numa_nodes;
  std::vector<PciDeviceInfo> pci_devices;
};

// Throws std::runtime_error when hwloc cannot load the topology.
TopologyInfo inspect_topology();

// The NUMA node of the PCI device at `address` (case-insensitive), -1 when unknown.
int numa_node_of_pci(const TopologyInfo& topology, const std::string& address);

}  // namespace xb
