#include "judge/storage_figure.hpp"

#include <fmt/format.h>

#include "jobs/io/io_config.hpp"
#include "jobs/kv/kv_config.hpp"
#include "judge/storage_ceiling.hpp"
#include "storage/storage_inventory.hpp"

namespace xb {

namespace fs = std::filesystem;

std::string io_path_kind(const std::string& rw) {
  if (rw == "read" || rw == "randread") return "io.read";
  if (rw == "write" || rw == "randwrite") return "io.write";
  return "";
}

StorageCeiling storage_ceiling_under(const fs::path& sysfs, const fs::path& directory) {
  StorageCeiling s;
  StorageInfo info;
  // A run's scratch directory may be gone by the time it is judged (the survey's): its nearest
  // existing ancestor is on the same file system unless the directory was a mount point itself.
  std::error_code ec;
  fs::path dir = directory.empty() ? directory : fs::absolute(directory, ec);
  while (!fs::exists(dir, ec) && dir.has_relative_path() && dir != dir.parent_path()) dir = dir.parent_path();
  try {
    info = inspect_storage(dir);
  } catch (const std::exception& e) {
    s.ceiling.derivation = fmt::format("{}: {}", directory.string(), e.what());
    return s;
  }
  if (info.block_device.empty()) {
    s.ceiling.derivation = fmt::format("{} is on {} ({}), which has no block device", info.directory.string(),
                                       info.fs_type, info.source);
    return s;
  }
  s.disk = info.model.empty() ? info.block_device : info.model;
  s.ceiling = storage_ceiling(sysfs, info.block_device);
  s.ceiling.derivation = fmt::format("{} is on {}: {}", info.directory.string(), info.block_device, s.ceiling.derivation);
  return s;
}

JudgedFigure io_figure(const CaseResult& c, const fs::path& sysfs, const std::string& server) {
  const IoConfig config = c.config.get<IoConfig>();
  JudgedFigure f;
  f.facts.case_metric = "throughput";
  f.facts.server = server;
  f.facts.block_bytes = config.io_size;
  f.facts.path = config.read_percent ? "" : io_path_kind(config.rw);
  const fs::path dir = !config.directory.empty() ? fs::path(config.directory) : fs::path(config.file).parent_path();
  StorageCeiling s = storage_ceiling_under(sysfs, dir.empty() ? fs::path(".") : dir);
  f.facts.device = s.disk;
  f.ceiling = std::move(s.ceiling);
  if (f.facts.path.empty()) {
    f.ceiling.derivation = fmt::format("a mixed run (rw {}{}) has no path kind: only read and write runs are judged",
                                       config.rw, config.read_percent ? fmt::format(", {}% reads", *config.read_percent) : "");
  }
  return f;
}

JudgedFigure kv_figure(const CaseResult& c, const fs::path& sysfs, const std::string& server) {
  const KvConfig config = c.config.get<KvConfig>();
  JudgedFigure f;
  f.facts.path = config.dump() ? "kv.dump" : "kv.load";
  f.facts.server = server;
  f.facts.block_bytes = config.block_bytes;
  StorageCeiling s = storage_ceiling_under(sysfs, config.store);
  f.facts.device = s.disk;
  f.ceiling = std::move(s.ceiling);
  return f;
}

}  // namespace xb
