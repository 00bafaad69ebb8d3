#pragma once
// The completion record of a data set: a small text file written, and made durable, only after a
// write run finished every byte it was asked for; removed (durably) before a write run writes its
// first byte. A write run that fails, is interrupted or is killed (even by SIGKILL or a power cut)
// therefore leaves no record, and a --verify read refuses files without one: a half-written file
// can never pass for a complete one.
//
// Format (text, one item a line, so a person can read it):
//   xferbench-io-manifest 1
//   io_size 1048576
//   file SEED BYTES NAME        (one line per file: its pattern seed, the bytes [0, BYTES) written)
//   end
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

struct ManifestFile {
  std::string name;            // the file name, without its directory
  std::uint64_t seed = 0;      // the pattern seed of this file
  std::uint64_t bytes = 0;     // bytes [0, bytes) hold the pattern
  bool operator==(const ManifestFile&) const = default;
};

struct Manifest {
  std::uint64_t io_bytes = 0;  // the IO size of the write run (informative: the pattern does not depend on it)
  std::vector<ManifestFile> files;
  bool operator==(const Manifest&) const = default;

  const ManifestFile* find(std::string_view name) const;
};

std::string manifest_text(const Manifest& m);
// Throws std::runtime_error saying what is wrong with the text (line number and content).
Manifest parse_manifest(std::string_view text);

// Writes the record atomically and durably: a temporary file beside it (registered with
// core/cleanup while it exists), written, fsync'd, renamed over `path`, then the directory fsync'd.
void write_manifest(const std::filesystem::path& path, const Manifest& m);
// Removes the record and fsyncs its directory, so the removal is on disk before any data is written.
// A missing record is fine; any other failure throws.
void remove_manifest(const std::filesystem::path& path);
// Reads and parses the record; throws std::runtime_error naming the path ("does not exist" when
// missing, else what is wrong).
Manifest read_manifest(const std::filesystem::path& path);

}  // namespace xb
