#pragma once
// What a p2p case's bandwidth is, for judging (within a node): path kind p2p, the size per
// execution, and the ceiling of the devices' PCIe paths: a peer copy crosses both devices' links,
// so the narrower decides; both ways at once count twice (PCIe is full duplex). The matrix case
// judges its lowest cell (bandwidth_min) against the narrowest device. NVLink/HCCS links are not
// read yet (a backend must report them): on such machines the PCIe ceiling understates the path
// and a figure above it passes. Across nodes p2p is left to the fleet's judgement (issue 17 item 4).
#include <filesystem>
#include <string>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

JudgedFigure p2p_figure(const CaseResult& c, Backend& backend, const std::filesystem::path& sysfs,
                        const std::string& server);

}  // namespace xb
