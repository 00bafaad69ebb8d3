#pragma once
// The NUMA node a PCI device hangs off, from sysfs: what the device probes (CUDA, Ascend) report so
// jobs bind host memory and threads near the device.
#include <string>

namespace xb {

// /sys/bus/pci/devices/<pci>/numa_node ("0000:18:00.0"); -1 where unknown or the address is empty.
int numa_node_of_pci(const std::string& pci_address);

}  // namespace xb
