#pragma once
// What an io or kv case's bandwidth is, for judging: its path kind (io.read for read and randread,
// io.write for write and randwrite; kv.load, kv.dump), the disk under its files (storage/
// storage_inventory: the file system's block device) with that disk's ceiling (storage_ceiling:
// its controller's PCIe path, its SATA link, the disks under a dm or md volume), and its IO or
// block size. A file system with no block device (tmpfs, overlay, NFS) has no ceiling: only an
// absolute rule judges it. A device transfer (--xfer cpu-gpu, kv load --to device) is set against
// the storage alone: a drive is far narrower than an accelerator's link.
#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

// "io.read", "io.write", or "" for a mixed run (gdsio's -I 2/3 with a read percentage).
std::string io_path_kind(const std::string& rw);

JudgedFigure io_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);
JudgedFigure kv_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);

// The ceiling of the disk under `directory`, and that disk's description (its model, else its
// name; "" where there is no disk). `sysfs` holds the disk's path; the file system is read from
// this machine's /proc/self/mountinfo and /sys/dev/block. A directory that no longer exists (a
// removed scratch directory) is read through its nearest existing ancestor.
struct StorageCeiling {
  std::string disk;
  Ceiling ceiling;
};
StorageCeiling storage_ceiling_under(const std::filesystem::path& sysfs, const std::filesystem::path& directory);

}  // namespace xb
