#pragma once
// What storage lies under a directory: its file system (statfs, /proc/self/mountinfo) and the block
// device behind it (/sys/dev/block, /sys/block/<disk>/queue). Read by `xferbench devices` and
// recorded in the survey's storage cases, and the disk a judged io or kv figure is set against. Facts
// only, no formatting.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace xb {

struct StorageInfo {
  std::filesystem::path directory;
  std::string fs_type;      // "ext4" (mountinfo), else statfs's magic as "0x…"
  std::string mount_point;  // "/"
  std::string source;       // the mount's source: "/dev/vda1", "tmpfs", "overlay"
  std::uint64_t capacity_bytes = 0;
  std::uint64_t free_bytes = 0;  // available to this user (statfs f_bavail)
  // The whole disk behind the file system ("vda" for /dev/vda1); empty when there is none (tmpfs,
  // overlay, nfs): then the fields below are unknown.
  std::string block_device;
  std::string partition;  // "vda1" when the file system is on a partition
  std::optional<bool> rotational;
  std::uint64_t logical_block_bytes = 0;
  std::uint64_t physical_block_bytes = 0;
  std::string model;      // /sys/block/<disk>/device/model, where the driver gives one
  std::string scheduler;  // the active IO scheduler ("none", "mq-deadline")
};

// The whole disk of a block device's sysfs directory: a partition's (it holds `partition`) is the
// directory above it, a disk's is itself.
std::filesystem::path whole_disk_of(const std::filesystem::path& block_node);

// Throws std::runtime_error naming the directory when it cannot be inspected (statfs/stat fail).
StorageInfo inspect_storage(const std::filesystem::path& directory);

}  // namespace xb
