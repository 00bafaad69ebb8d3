#include "storage/storage_inventory.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "core/first_line.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

std::uint64_t read_number(const fs::path& file) {
  try {
    return std::stoull(read_first_line(file));
  } catch (const std::exception&) {
    return 0;  // absent or not a number: unknown
  }
}

// mountinfo escapes spaces, tabs, newlines and backslashes in paths as \ooo.
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The mount whose device is `dev` and whose mount point is the longest prefix of `dir` (stacked
// mounts: the last listed is the visible one).
void fill_from_mountinfo(StorageInfo& info, dev_t dev, const fs::path& dir) {
  std::ifstream in("/proc/self/mountinfo");
  const std::string want = fmt::format("{}:{}", major(dev), minor(dev));
  const std::string path = dir.string();
  std::size_t best = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, devno, root, mount_point;
    fields >> id >> parent >> devno >> root >> mount_point;
    if (devno != want) continue;
    mount_point = unescape(mount_point);
    const bool prefix = path == mount_point || mount_point == "/" ||
                        (path.rfind(mount_point, 0) == 0 && path.size() > mount_point.size() && path[mount_point.size()] == '/');
    if (!prefix || mount_point.size() < best) continue;
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream tail(line.substr(dash + 3));
    std::string type, source;
    tail >> type >> source;
    best = mount_point.size();
    info.mount_point = mount_point;
    info.fs_type = type;
    info.source = unescape(source);
  }
}

// /sys/dev/block/MAJ:MIN is a link into /sys/devices/…/block/<disk>[/<partition>].
void fill_from_sysfs(StorageInfo& info, dev_t dev) {
  std::error_code ec;
  const fs::path node = fs::canonical(fmt::format("/sys/dev/block/{}:{}", major(dev), minor(dev)), ec);
  if (ec) return;  // no block device (tmpfs, overlay, nfs, btrfs subvolumes' anonymous devices)
  const fs::path disk = whole_disk_of(node);
  if (disk != node) info.partition = node.filename().string();
  info.block_device = disk.filename().string();
  const fs::path queue = disk / "queue";
  const std::string rotational = read_first_line(queue / "rotational");
  if (rotational == "0" || rotational == "1") info.rotational = rotational == "1";
  info.logical_block_bytes = read_number(queue / "logical_block_size");
  info.physical_block_bytes = read_number(queue / "physical_block_size");
  info.model = read_first_line(disk / "device" / "model");
  // "[mq-deadline] none": the active one is bracketed.
  const std::string sched = read_first_line(queue / "scheduler");
  const auto open = sched.find('['), close = sched.find(']');
  info.scheduler = open != std::string::npos && close > open ? sched.substr(open + 1, close - open - 1) : sched;
}

}  // namespace

fs::path whole_disk_of(const fs::path& block_node) {
  return fs::exists(block_node / "partition") ? block_node.parent_path() : block_node;
}

StorageInfo inspect_storage(const fs::path& directory) {
  StorageInfo info;
  std::error_code ec;
  info.directory = fs::canonical(directory, ec);
  if (ec) throw SystemError(fmt::format("realpath({})", directory.string()), ec.value());
  struct statfs sf {};
  if (statfs(info.directory.c_str(), &sf) != 0) throw_errno(fmt::format("statfs({})", info.directory.string()));
  struct stat st {};
  if (stat(info.directory.c_str(), &st) != 0) throw_errno(fmt::format("stat({})", info.directory.string()));
  info.capacity_bytes = static_cast<std::uint64_t>(sf.f_blocks) * static_cast<std::uint64_t>(sf.f_frsize);
  info.free_bytes = static_cast<std::uint64_t>(sf.f_bavail) * static_cast<std::uint64_t>(sf.f_frsize);
  fill_from_mountinfo(info, st.st_dev, info.directory);
  if (info.fs_type.empty()) info.fs_type = fmt::format("0x{:x}", static_cast<unsigned long>(sf.f_type));
  fill_from_sysfs(info, st.st_dev);
  return info;
}

}  // namespace xb
