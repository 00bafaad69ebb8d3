#pragma once
// Files that appear whole or not at all, and that another user cannot redirect. The content goes
// to a temporary created next to the target with O_CREAT | O_EXCL | O_NOFOLLOW under a random name
// (drawn again on a clash), then is renamed onto the target. A link planted at the temporary's name
// is never followed (the create fails and another name is drawn), and rename replaces a link at the
// target instead of writing through it: root writing into a world-writable directory overwrites
// nothing but its own file. A run killed half-way leaves no half file (and the signal handlers of
// core/cleanup remove the temporary). Every file the program writes whole goes through here:
// --output, --ready-file, the HTML page, compare's output, the storage manifest.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/cleanup.hpp"
#include "core/unique_fd.hpp"

namespace xb {

class AtomicFileWriter {
 public:
  // Creates the temporary in the target's directory; `mode` as open(2)'s (the umask applies).
  // Throws SystemError naming the temporary when it cannot be created.
  explicit AtomicFileWriter(std::filesystem::path target, mode_t mode = 0666);
  ~AtomicFileWriter();  // removes the temporary unless committed
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(std::string_view text);
  // The temporary becomes the target: fsync'd first when `durable` (the rename's directory is the
  // caller's to sync), closed, renamed. Throws SystemError naming the call and the file.
  void commit(bool durable = false);
  const std::filesystem::path& temporary() const { return temp_; }

 private:
  std::filesystem::path target_;
  std::filesystem::path temp_;
  UniqueFd fd_;
  std::optional<ScopedCleanup> cleanup_;
  bool committed_ = false;
};

// Why `path` cannot be written by write_file_atomically, checked before any work; empty when it
// can. Not a directory; its directory exists and takes a new file: a temporary is created there and
// removed, so a read-only file system, /proc, or a directory this user may not write to is found
// before a measurement instead of after it. Leaves nothing behind.
std::string why_not_writable(const std::string& path);

// The whole of `text` as the file `path`. Throws SystemError naming the file on a failed create,
// write or rename; nothing is left behind then.
void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace xb
