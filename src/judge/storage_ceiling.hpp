#pragma once
// What a block device's path can carry: the PCIe link of the controller it hangs off (an NVMe
// drive's own link; a SATA or SAS HBA's, shared by its disks) and, for a SATA disk, its link
// speed (sysfs ata_link sata_spd: 1.5, 3.0 or 6.0 Gbps, 8b/10b encoded); the narrower decides.
// A device-mapper or md volume is set against the disks under it (its slaves/): one disk's
// ceiling, or the sum over several. The drive's own media limits are not in sysfs: that bound is
// the SKU file's (item 2).
#include <filesystem>
#include <string_view>

#include "judge/ceiling.hpp"

namespace xb {

// `disk` is the block device's name ("nvme0n1", "sda", "vda"), not a partition.
Ceiling storage_ceiling(const std::filesystem::path& sysfs, std::string_view disk);

}  // namespace xb
