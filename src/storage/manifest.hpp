#pragma once
// The completion record of a data file: a few text lines saying that bytes [begin, end) of one file
// hold the pattern of a seed, written and made durable only after a write run finished every byte it
// was asked for, and removed (durably) before a write run writes its first byte to that file. A write
// run that fails, is interrupted or is killed (even by SIGKILL or a power cut) therefore leaves no
// record, and a --verify read refuses files without one: a half-written file never passes for a
// complete one.
//
// Records live in the user's state directory, never beside the data: a script that lists or counts
// the files of its directory (as gdsio's users do) finds only its data files there. A record is
// named by the file's identity (device and inode) and holds its name, so a file replaced under the
// same name (a new inode) has no record and its verify is refused. Bytes changed in place are for the
// verify itself to find: it names the file and offset of the first wrong byte.
//
// Format (text, one item a line, so a person can read it):
//   xferbench-io-record 2
//   path /abs/path/of/the/file        (informative: the name the write run used)
//   identity DEV INO SIZE CTIME_NS     (the file as the write run left it; size and time informative)
//   pattern SEED BEGIN END             (bytes [BEGIN, END) hold the pattern of SEED)
//   io_size 1048576                    (informative: the pattern does not depend on it)
//   end
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace xb {

struct FileIdentity {
  std::uint64_t device = 0, inode = 0, size = 0, ctime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity identity_of(const struct stat& st);

struct Manifest {
  std::string path;
  FileIdentity identity;
  std::uint64_t seed = 0;
  std::uint64_t begin = 0, end = 0;  // bytes [begin, end) hold the pattern of seed
  std::uint64_t io_bytes = 0;
  bool operator==(const Manifest&) const = default;
};

std::string manifest_text(const Manifest& m);
// Throws std::runtime_error saying what is wrong with the text (line number and content).
Manifest parse_manifest(std::string_view text);

// Where records live: $XFERBENCH_STATE_DIR, else $XDG_STATE_HOME/xferbench, else
// $HOME/.local/state/xferbench (the XDG base directory rule for state), else
// /var/lib/xferbench. state_directory_from takes the three variables' values (null when unset).
std::filesystem::path state_directory();
std::filesystem::path state_directory_from(const char* xferbench_state_dir, const char* xdg_state_home,
                                           const char* home);
// The record of the file with this identity: STATE/io-written/DEV-INO (hexadecimal).
std::filesystem::path manifest_path(const std::filesystem::path& state, const FileIdentity& id);

// Before a write run writes its first byte to the open file `fd`: its record (if any) is removed,
// durably. Throws naming the record when it cannot be removed.
void forget_written(const std::filesystem::path& state, int fd, const std::string& path);
// After a complete write run made the file's data durable: writes its record atomically and durably
// (the state directory made, mode 0700, when missing).
void record_written(const std::filesystem::path& state, int fd, const std::string& path, std::uint64_t seed,
                    std::uint64_t begin, std::uint64_t end, std::uint64_t io_bytes);
// Removes the records of files that no longer exist under the names they were written with, so the
// state directory does not grow without bound: once per write run, after its records (each record
// read once; a run of 1024 files must not read the directory 1024 times).
void prune_written_records(const std::filesystem::path& state);
// Whether `path` holds the pattern of `seed` over [begin, end) as a complete write run left it:
// throws std::runtime_error saying why not (no record, a record of other bytes, another seed or
// another name).
void check_written(const std::filesystem::path& state, const std::string& path, std::uint64_t seed,
                   std::uint64_t begin, std::uint64_t end);

// The record file alone (tests, and the three calls above).
void write_manifest(const std::filesystem::path& path, const Manifest& m);
// Removes the record and fsyncs its directory. A missing record (or state directory) is fine.
void remove_manifest(const std::filesystem::path& path);
// Throws std::runtime_error naming the path ("does not exist" when missing, else what is wrong).
Manifest read_manifest(const std::filesystem::path& path);

}  // namespace xb
