#pragma once
// What a copy case's bandwidth is, for judging: its path kind (copy.h2d …), the device it ran on,
// its block size, and the ceiling: the sum of each device's PCIe path (the copy's figure is the
// sum over its devices; devices behind one shared uplink make that sum an upper bound, said in the
// derivation), unknown where any device has no PCI link (the cpu backend's arenas).
#include <filesystem>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

JudgedFigure copy_figure(const CaseResult& c, Backend& backend, const std::filesystem::path& sysfs,
                         const std::string& server);

}  // namespace xb
