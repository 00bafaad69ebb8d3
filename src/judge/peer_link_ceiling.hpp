#pragma once
// The ceiling of the direct links between two devices of one backend (NVLink, HCCS), from what the
// backend reports (DeviceInfo::peer_links, read by its probe: NVML for CUDA): what a copy from one
// device to the other crosses instead of PCIe. One direction; both ways at once is the caller's
// factor of two (the links are full duplex).
#include <optional>

#include "backends/device.hpp"
#include "judge/ceiling.hpp"

namespace xb {

// From `from` to `to`: the links straight between them (either end's report: a link has two) plus
// the switch fabric both sit on, bounded by the end with fewer links into it (the switch itself is
// taken as non-blocking, as NVSwitch is). Null where they share no such link: the copy crosses PCIe.
// A device with links that are not active warns (a link trained down or cut, as PCIe's downtrained
// link does), even where the figure looks fine.
std::optional<Ceiling> peer_link_ceiling(const DeviceInfo& from, const DeviceInfo& to);

// What a copy between the two crosses: their peer links where they share any, else the narrower
// of their PCIe paths (`pcie_from`, `pcie_to`), unknown where either of those is.
Ceiling device_pair_ceiling(const DeviceInfo& from, const Ceiling& pcie_from, const DeviceInfo& to,
                            const Ceiling& pcie_to);

}  // namespace xb
