#pragma once
// What a copy case's bandwidth is, for judging: its path kind (copy.h2d …), the device it ran on,
// its block size, and the ceiling: the sum of each device's PCIe path (the copy's figure is the
// sum over its devices; devices behind one shared uplink make that sum an upper bound, said in the
// derivation), unknown where any device has no PCI link. A copy within host memory (h2h, or the
// cpu backend's arenas, host RAM without a link) is path kind copy.h2h against host memory's
// ceiling (judge/memory_ceiling).
#include <filesystem>
#include <string>
#include <string_view>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

// Device `index`'s PCIe path (its info, as the job recorded it, names the PCI function), its
// derivation prefixed with the device's name ("cpu::device::0: PCIe Gen4 x16 …"); unknown, said
// so, where it has no PCI link (the cpu backend's arenas). `device_name` receives the device's
// description when still empty.
Ceiling device_pcie_ceiling(std::string_view backend, int index, const DeviceInfo& info,
                            const std::filesystem::path& sysfs, std::string& device_name);

// From the case alone: its devices are the ones its config records (device_info).
JudgedFigure copy_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);

}  // namespace xb
