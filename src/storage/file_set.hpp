#pragma once
// The files an io run works on: one per thread in a directory (-D), or one shared file (-f) in
// which thread t owns the region [offset + t * bytes_per_thread, offset + (t + 1) * bytes_per_thread).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/cleanup.hpp"
#include "storage/io_engine.hpp"

namespace xb {

struct FileSetSpec {
  std::filesystem::path directory;  // -D (exactly one of directory and file is set)
  std::filesystem::path file;       // -f
  unsigned threads = 1;
  std::uint64_t bytes_per_thread = 0;
  bool write = false;   // create missing files (mode 0600); otherwise they must exist, long enough
  bool direct = true;   // O_DIRECT
  bool keep = false;    // a write run that fails keeps the files it created (default: removes them)
  bool verify = false;  // a read run that checks the pattern: needs the record of a complete write run
  std::uint64_t seed = 0;  // the pattern seed of file 0; file i uses seed + i (the io job's rule)
  std::uint64_t offset = 0;  // where the regions start in every file (gdsio's -o)
  std::string name_prefix = "xferbench-io";  // -D's files are PREFIX.0 ... PREFIX.N-1
};

// The paths the run will use, in file-index order (nothing is touched).
std::vector<std::filesystem::path> file_set_paths(const FileSetSpec& spec);

// Checks the paths without creating anything: PlanError naming the field (files.directory or
// files.file, core/plan_error.hpp) for a missing directory, a
// file where a directory is expected (and the reverse), an unwritable directory for a write run.
void validate_file_set_paths(const FileSetSpec& spec);
// A read run needs every file to exist and to hold its whole region: runtime_error naming the file
// and both sizes otherwise. A --verify read also needs, for each file, the record of a complete write
// run (storage/manifest.hpp) covering its regions with the expected seed: runtime_error saying what
// is missing otherwise. Nothing to check for a write run.
void check_files_to_read(const FileSetSpec& spec);

// What a write run would add to its file system, against what is free there (statvfs f_bavail:
// what this user may fill): each file's region past its current end. Empty for a read run or when
// it fits, so a write larger than the free space is refused before it starts.
struct SpaceShortfall {
  std::filesystem::path where;  // the directory holding the files
  std::uint64_t needed = 0;     // bytes the run adds
  std::uint64_t free = 0;       // bytes free there
};
std::optional<SpaceShortfall> space_shortfall(const FileSetSpec& spec);

// The alignment O_DIRECT needs of offsets and lengths on the file system holding `path` (an
// existing file or directory): statx's STATX_DIOALIGN for a regular file when the file system
// reports it, else the logical block size of the block device under it (sysfs), else 4096, the
// largest logical block of current drives. 0 when the file system says it cannot do O_DIRECT.
std::uint64_t direct_io_alignment(const std::filesystem::path& path);

// The open files (RAII: closed by the destructor).
// - A write run first removes each file's completion record (manifest), before any byte is written.
// - Files this object created are registered with core/cleanup while it lives, so SIGINT/SIGTERM
//   removes them, and are removed by the destructor when it runs because of an exception (the run
//   failed: ENOSPC, an IO error, an unavailable engine) unless spec.keep. Files that existed before
//   are never removed (they are not ours), but without a record a --verify read refuses them.
// - mark_written() makes the data durable and writes the record: call it when every thread has
//   written its whole region.
class FileSet {
 public:
  explicit FileSet(const FileSetSpec& spec);
  ~FileSet();
  FileSet(const FileSet&) = delete;
  FileSet& operator=(const FileSet&) = delete;

  std::span<const IoFile> files() const { return files_; }
  // Which file thread t works on, and where its region starts.
  std::uint32_t file_of(unsigned thread) const { return one_file_ ? 0 : thread; }
  std::uint64_t region_start(unsigned thread) const {
    return spec_.offset + (one_file_ ? thread * bytes_per_thread_ : 0);
  }

  // fdatasync every file, then write each one's completion record (seed, bytes written, `io_bytes`).
  void mark_written(std::uint64_t io_bytes);

 private:
  FileSetSpec spec_;
  std::vector<IoFile> files_;
  std::vector<std::filesystem::path> created_;
  std::vector<std::unique_ptr<ScopedCleanup>> on_signal_;  // one per created file
  bool one_file_ = false;
  std::uint64_t bytes_per_thread_ = 0;
  std::filesystem::path state_;  // where the files' completion records live (storage/manifest.hpp)
  int uncaught_at_start_ = 0;  // std::uncaught_exceptions() when constructed: more at destruction = failed run
};

}  // namespace xb
