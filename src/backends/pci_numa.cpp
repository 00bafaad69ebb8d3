#include "backends/pci_numa.hpp"

#include <fstream>

namespace xb {

int numa_node_of_pci(const std::string& pci_address) {
  if (pci_address.empty() || pci_address.find('/') != std::string::npos) return -1;
  std::ifstream f("/sys/bus/pci/devices/" + pci_address + "/numa_node");
  int node = -1;
  if (f >> node) return node;
  return -1;
}

}  // namespace xb
