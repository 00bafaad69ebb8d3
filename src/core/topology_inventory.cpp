#include "core/topology_inventory.hpp"

#include <fmt/format.h>
#include <hwloc.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace xb {
namespace {

struct TopologyDeleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

Topology load_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) throw std::runtime_error("hwloc_topology_init failed");
  Topology t(raw);
  // PCI devices and their OS devices are filtered out by default; keep the ones that matter.
  hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  // PCI devices from Linux's sysfs (hwloc's linux component), not the libpciaccess plugin: it finds
  // the same devices and leaks a few allocations on every load (LeakSanitizer sees them).
  hwloc_topology_set_components(raw, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
  if (hwloc_topology_load(raw) != 0) throw std::runtime_error("hwloc_topology_load failed");
  return t;
}

std::string cpu_list(hwloc_const_bitmap_t set) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, set) < 0 || text == nullptr) return "";
  std::string s(text);
  std::free(text);
  return s;
}

// The PCI classes a data path goes through; the rest (bridges, USB, audio) are left out.
const char* kind_of(unsigned class_id) {
  switch (class_id >> 8) {
    case 0x01: return "storage";
    case 0x02: return "network";
    case 0x03: return "display/3D";
    case 0x0b: return "processor";
    case 0x12: return "accelerator";
    default: return nullptr;
  }
}

int numa_of(hwloc_topology_t t, hwloc_obj_t obj) {
  const hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, obj);
  if (anc == nullptr || anc->nodeset == nullptr) return -1;
  // Attached to the whole machine (every node): no single NUMA node.
  if (hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE) > 1 && hwloc_bitmap_weight(anc->nodeset) != 1) return -1;
  return hwloc_bitmap_first(anc->nodeset);
}

}  // namespace

TopologyInfo inspect_topology() {
  const Topology topo = load_topology();
  hwloc_topology_t t = topo.get();
  TopologyInfo info;
  info.packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
  info.cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
  info.pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
  info.memory_bytes = hwloc_get_root_obj(t)->total_memory;
  const int nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < nodes; ++i) {
    const hwloc_obj_t n = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
    NumaNodeInfo node;
    node.os_index = n->os_index;
    node.memory_bytes = n->attr ? n->attr->numanode.local_memory : 0;
    node.cores = hwloc_get_nbobjs_inside_cpuset_by_type(t, n->cpuset, HWLOC_OBJ_CORE);
    node.pus = hwloc_get_nbobjs_inside_cpuset_by_type(t, n->cpuset, HWLOC_OBJ_PU);
    node.cpus = cpu_list(n->cpuset);
    info.numa_nodes.push_back(node);
  }
  for (hwloc_obj_t pci = hwloc_get_next_pcidev(t, nullptr); pci != nullptr; pci = hwloc_get_next_pcidev(t, pci)) {
    const auto& a = pci->attr->pcidev;
    const char* kind = kind_of(a.class_id);
    if (kind == nullptr) continue;
    PciDeviceInfo d;
    d.address = fmt::format("{:04x}:{:02x}:{:02x}.{:x}", a.domain, a.bus, a.dev, a.func);
    d.class_id = a.class_id;
    d.kind = kind;
    d.vendor_id = a.vendor_id;
    d.device_id = a.device_id;
    d.numa_node = numa_of(t, pci);
    for (hwloc_obj_t os = pci->io_first_child; os != nullptr; os = os->next_sibling) {
      if (os->type == HWLOC_OBJ_OS_DEVICE && os->name) d.os_names += (d.os_names.empty() ? "" : ",") + std::string(os->name);
    }
    info.pci_devices.push_back(d);
  }
  return info;
}

int numa_node_of_pci(const TopologyInfo& topology, const std::string& address) {
  std::string want = address;
  std::transform(want.begin(), want.end(), want.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& d : topology.pci_devices) {
    if (d.address == want) return d.numa_node;
  }
  return -1;
}

}  // namespace xb
