#pragma once
// What a p2p case's bandwidth is, for judging (within a node): path kind p2p, the size per
// execution, and the ceiling of the path between the devices: their peer links (NVLink, HCCS: what
// the backend reports, judge/peer_link_ceiling) where they share any, else their PCIe paths, where
// a peer copy crosses both devices' links, so the narrower decides. Both ways at once count twice
// (the links are full duplex). The matrix case judges its lowest cell (bandwidth_min) against its
// narrowest pair. Across nodes p2p is left to the fleet's judgement.
#include <filesystem>
#include <string>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

// From the case alone: its devices are the ones its config records (device_info).
JudgedFigure p2p_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);

}  // namespace xb
