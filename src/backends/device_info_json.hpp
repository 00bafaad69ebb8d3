#pragma once
// A device as it describes itself, as JSON: what a job records of its devices in a case's config,
// so the judge reads their PCI addresses and peer links from the result and never opens a device.
#include "backends/device.hpp"
#include "core/json_record.hpp"

namespace xb {

XB_JSON_RECORD(PeerLink, technology, peer_pci_address, through_switch, links, bytes_per_second_each)
XB_JSON_RECORD(DeviceInfo, index, name, memory_bytes, numa_node, pci_address, card, die, peer_links, peer_links_down,
               peer_links_note)

}  // namespace xb
