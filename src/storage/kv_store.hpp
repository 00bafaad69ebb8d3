#pragma once
// The on-disk layout of the KV block store: one file per block, named by a hash of the block id,
// in two levels of fan-out directories (as git stores objects), so no directory ever holds more
// than a few thousand entries however many blocks there are:
//
//   STORE/ab/cd/abcd0123456789ef            block whose id hashes to 0xabcd0123456789ef
//   STORE/ab/cd/abcd0123456789ef.tmp-PID.T  a block being written by thread T of process PID
//                                           (renamed to the block's name when whole)
//
// Only the layout lives here (names, directories, the publish-by-rename and removal); the kv job
// does the IO and the measuring.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/cleanup.hpp"

namespace xb {

// A bijective 64-bit mix of the block id (splitmix64's finalizer): spreads consecutive ids evenly
// over the fan-out directories, and two ids never share a name.
std::uint64_t kv_block_hash(std::uint64_t block_id) noexcept;
// The hash as 16 lower-case hex digits: the block's file name.
std::string kv_block_name(std::uint64_t block_id);
// STORE/ab/cd/<name>.
std::filesystem::path kv_block_path(const std::filesystem::path& store, std::uint64_t block_id);
// Where a block is written before it is renamed into place: "<path>.tmp-<pid>.<writer>". The
// writer (a thread index) keeps two threads that store the same block at once (several passes)
// apart. A load opens only the exact block name, so a temporary left by a crash is never read.
std::filesystem::path kv_temp_path(const std::filesystem::path& store, std::uint64_t block_id, unsigned writer);
// The verification pattern's seed of a block: every block differs, so a block file copied over
// another is caught too.
std::uint64_t kv_block_seed(std::uint64_t base_seed, std::uint64_t block_id) noexcept;

// Creates the block's two fan-out directories if missing (mode 0700; safe from many threads at once).
void make_kv_block_dirs(const std::filesystem::path& store, std::uint64_t block_id);

// A block being written: its temporary file, created (O_EXCL, mode 0600) and registered with
// core/cleanup so a SIGINT removes it. publish() renames it to the block's name; the destructor
// closes the file and, unless published, removes it: an error or an interrupt never leaves a
// half-written block under the real name.
class KvTempBlock {
 public:
  KvTempBlock(const std::filesystem::path& store, std::uint64_t block_id, unsigned writer, bool direct);
  ~KvTempBlock();
  KvTempBlock(const KvTempBlock&) = delete;
  KvTempBlock& operator=(const KvTempBlock&) = delete;

  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return temp_; }
  // Closes the file and renames it over the block's name (atomic: a reader sees the old block or
  // the whole new one).
  void publish();

 private:
  std::filesystem::path temp_, final_;
  ScopedCleanup registered_;
  int fd_ = -1;
  bool published_ = false;
};

// Removes blocks [0, blocks) and the fan-out directories left empty (the dev-sandbox dialect's
// clean-up after its run). Missing blocks are not an error.
void remove_kv_blocks(const std::filesystem::path& store, std::uint64_t blocks);
// The same from a signal handler (a core/cleanup sweep): async-signal-safe, no allocation; the
// names are built in a stack buffer, and each block's fan-out directories are tried once emptied.
void sweep_kv_blocks(const char* store, unsigned long long blocks) noexcept;

}  // namespace xb
