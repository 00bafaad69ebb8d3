#include "storage/file_set.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <fstream>
#include <stdexcept>

#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "core/size.hpp"
#include "storage/manifest.hpp"

namespace xb {
namespace {

// The bytes of each file the run works on (from spec.offset), and how far the file must reach.
std::uint64_t region_bytes(const FileSetSpec& spec) {
  return spec.file.empty() ? spec.bytes_per_thread : spec.bytes_per_thread * spec.threads;
}
std::uint64_t needed_bytes(const FileSetSpec& spec) { return spec.offset + region_bytes(spec); }

std::string describe_need(const FileSetSpec& spec) {
  const std::string from = spec.offset ? fmt::format(", from offset {}", spec.offset) : "";
  if (spec.file.empty()) {
    return fmt::format("{} bytes ({}{})", needed_bytes(spec), format_size(spec.bytes_per_thread), from);
  }
  return fmt::format("{} bytes ({} threads x {}{})", needed_bytes(spec), spec.threads, format_size(spec.bytes_per_thread),
                     from);
}

// A power of two from 512 to 64 KiB: anything else read from sysfs is not a logical block size.
bool plausible_block(std::uint64_t b) { return b >= 512 && b <= 65536 && (b & (b - 1)) == 0; }

std::uint64_t sysfs_logical_block(dev_t dev) {
  // A whole disk has queue/ itself; a partition's is its parent's.
  const std::string base = fmt::format("/sys/dev/block/{}:{}", major(dev), minor(dev));
  for (const char* rel : {"/queue/logical_block_size", "/../queue/logical_block_size"}) {
    std::ifstream in(base + rel);
    std::uint64_t b = 0;
    if (in >> b && plausible_block(b)) return b;
  }
  return 0;
}

}  // namespace

std::vector<std::filesystem::path> file_set_paths(const FileSetSpec& spec) {
  if (!spec.file.empty()) return {spec.file};
  std::vector<std::filesystem::path> paths;
  for (unsigned t = 0; t < spec.threads; ++t) paths.push_back(spec.directory / fmt::format("{}.{}", spec.name_prefix, t));
  return paths;
}

std::uint64_t direct_io_alignment(const std::filesystem::path& path) {
  struct statx sx {};
  if (statx(AT_FDCWD, path.c_str(), 0, STATX_DIOALIGN | STATX_TYPE, &sx) == 0) {
    // File systems report DIO alignment for regular files only (ext4, xfs, btrfs since 6.1).
    if ((sx.stx_mask & STATX_DIOALIGN) != 0 && S_ISREG(sx.stx_mode)) {
      return sx.stx_dio_offset_align;  // 0: this file cannot be opened with O_DIRECT
    }
    if (const std::uint64_t b = sysfs_logical_block(makedev(sx.stx_dev_major, sx.stx_dev_minor))) return b;
  }
  return 4096;
}

void validate_file_set_paths(const FileSetSpec& spec) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (spec.directory.empty() == spec.file.empty()) {
    throw PlanError(
        fmt::format("{} / {}: give exactly one: a directory ({} DIR, one file per thread) or a file ({} FILE)",
                    flag("files.directory"), flag("files.file"), flag("files.directory"), flag("files.file")));
  }
  if (!spec.directory.empty()) {
    const auto& d = spec.directory;
    const auto st = fs::status(d, ec);
    if (st.type() == fs::file_type::not_found) {
      throw PlanError(fmt::format("{} {}: the directory does not exist", flag("files.directory"), d.string()));
    }
    if (st.type() != fs::file_type::directory) {
      throw PlanError(fmt::format("{} {}: not a directory (use {} for a single file)", flag("files.directory"),
                                  d.string(), flag("files.file")));
    }
    if (spec.write && access(d.c_str(), W_OK | X_OK) != 0) {
      throw PlanError(fmt::format("{} {}: the directory is not writable", flag("files.directory"), d.string()));
    }
  } else {
    const auto& f = spec.file;
    const auto st = fs::status(f, ec);
    if (st.type() == fs::file_type::directory) {
      throw PlanError(fmt::format("{} {}: is a directory (use {} for a directory)", flag("files.file"), f.string(),
                                  flag("files.directory")));
    }
    const auto parent = fs::absolute(f).parent_path();
    if (!fs::is_directory(parent, ec)) {
      throw PlanError(
          fmt::format("{} {}: the directory {} does not exist", flag("files.file"), f.string(), parent.string()));
    }
    // Block devices are left out on purpose for now: a write run would overwrite a disk.
    if (st.type() != fs::file_type::not_found && st.type() != fs::file_type::regular) {
      throw PlanError(fmt::format("{} {}: not a regular file", flag("files.file"), f.string()));
    }
    if (spec.write && st.type() == fs::file_type::not_found && access(parent.c_str(), W_OK | X_OK) != 0) {
      throw PlanError(
          fmt::format("{} {}: the directory {} is not writable", flag("files.file"), f.string(), parent.string()));
    }
  }
}

namespace {

// A --verify read checks only files that a write run finished: each file's record must exist, be of
// the file as it is now, and name the seed the run expects and at least the bytes it reads.
void check_written_record(const FileSetSpec& spec) {
  const auto paths = file_set_paths(spec);
  const auto state = state_directory();
  for (std::size_t i = 0; i < paths.size(); ++i) {
    try {
      check_written(state, paths[i].string(), spec.seed + i, spec.offset, needed_bytes(spec));
    } catch (const std::exception& e) {
      throw std::runtime_error(
          fmt::format("a read with verification: refused: {}; write the files again with a complete write run", e.what()));
    }
  }
}

}  // namespace

void check_files_to_read(const FileSetSpec& spec) {
  if (spec.write) return;
  for (const auto& p : file_set_paths(spec)) {
    struct stat st {};
    if (stat(p.c_str(), &st) != 0) {
      if (errno == ENOENT) {
        throw std::runtime_error(fmt::format("read run: {} does not exist; it must hold {} (write it first with a write run)",
                                             p.string(), describe_need(spec)));
      }
      throw_errno(fmt::format("stat({})", p.string()));
    }
    const auto have = static_cast<std::uint64_t>(st.st_size);
    if (have < needed_bytes(spec)) {
      throw std::runtime_error(fmt::format("read run: {} is {} bytes, shorter than the {} this run reads",
                                           p.string(), have, describe_need(spec)));
    }
  }
  if (spec.verify) check_written_record(spec);
}

std::optional<SpaceShortfall> space_shortfall(const FileSetSpec& spec) {
  if (!spec.write) return std::nullopt;
  const auto paths = file_set_paths(spec);
  if (paths.empty()) return std::nullopt;
  const std::uint64_t per_file = needed_bytes(spec);
  std::uint64_t adds = 0;
  for (const auto& p : paths) {
    struct stat st {};
    const std::uint64_t have = stat(p.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    adds += per_file > have ? per_file - have : 0;
  }
  const auto dir = std::filesystem::absolute(paths.front()).parent_path();
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) != 0) throw_errno(fmt::format("statvfs({})", dir.string()));
  const std::uint64_t free = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (adds <= free) return std::nullopt;
  return SpaceShortfall{dir, adds, free};
}

FileSet::FileSet(const FileSetSpec& spec)
    : spec_(spec), one_file_(!spec.file.empty()), bytes_per_thread_(spec.bytes_per_thread),
      state_(state_directory()), uncaught_at_start_(std::uncaught_exceptions()) {
  try {
    for (const auto& p : file_set_paths(spec)) {
      int flags = (spec.write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
      if (spec.direct) flags |= O_DIRECT;
      int fd = open(p.c_str(), flags);
      if (fd < 0 && errno == ENOENT && spec.write) {
        // Made and registered in one bracket: an interrupt's handler waits for both (core/cleanup).
        const CreatingNames bracket(NameRegistered::after);
        fd = open(p.c_str(), flags | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) {
          // Registered right after creation (a signal in between would leave this one file).
          created_.push_back(p);
          try {
            on_signal_.push_back(std::make_unique<ScopedCleanup>(CleanupKind::file, p.string()));
          } catch (const std::runtime_error&) {
            // The signal table is full (256 names) or the path too long for it: this file is still
            // removed when the run fails, only not by a signal. Not worth refusing the run for.
          }
        }
      }
      if (fd < 0) {
        throw_errno(fmt::format("open({}, {}{})", p.string(), spec.write ? "O_RDWR" : "O_RDONLY",
                                spec.direct ? " | O_DIRECT" : ""));
      }
      files_.push_back({fd, p.string()});
      // Before the first byte is written: from here on the file is not known to be complete.
      if (spec.write) forget_written(state_, fd, p.string());
    }
  } catch (...) {
    // A failed start wrote nothing: what it created goes, --keep or not.
    for (const auto& f : files_) close(f.fd);
    for (const auto& p : created_) unlink(p.c_str());
    throw;
  }
}

FileSet::~FileSet() {
  for (const auto& f : files_) close(f.fd);
  // Destroyed by an exception: the run failed part-way; its files hold a partial pattern.
  if (std::uncaught_exceptions() > uncaught_at_start_ && !spec_.keep) {
    for (const auto& p : created_) unlink(p.c_str());
  }
}

void FileSet::mark_written(std::uint64_t io_bytes) {
  // The data must be on disk before the record says it is (a power cut in between must not leave
  // a record of data that is lost); with O_DIRECT this flushes the drive's cache.
  for (const auto& f : files_) {
    if (fdatasync(f.fd) != 0) throw_errno(fmt::format("fdatasync({})", f.path));
  }
  for (std::size_t i = 0; i < files_.size(); ++i) {
    record_written(state_, files_[i].fd, files_[i].path, spec_.seed + i, spec_.offset, needed_bytes(spec_),
                   io_bytes);
  }
  prune_written_records(state_);
}

}  // namespace xb
