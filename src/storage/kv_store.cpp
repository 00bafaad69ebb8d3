#include "storage/kv_store.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "core/error.hpp"

namespace xb {
namespace {

// The fan-out directories of a block: STORE/ab and STORE/ab/cd.
std::filesystem::path first_dir(const std::filesystem::path& store, const std::string& name) {
  return store / name.substr(0, 2);
}
std::filesystem::path second_dir(const std::filesystem::path& store, const std::string& name) {
  return first_dir(store, name) / name.substr(2, 2);
}

void make_dir(const std::filesystem::path& dir) {
  // EEXIST is the normal case: other threads, other blocks, earlier runs made it.
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) throw_errno(fmt::format("mkdir({})", dir.string()));
}

}  // namespace

std::uint64_t kv_block_hash(std::uint64_t block_id) noexcept {
  std::uint64_t z = block_id + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string kv_block_name(std::uint64_t block_id) { return fmt::format("{:016x}", kv_block_hash(block_id)); }

std::filesystem::path kv_block_path(const std::filesystem::path& store, std::uint64_t block_id) {
  const std::string name = kv_block_name(block_id);
  return second_dir(store, name) / name;
}

std::filesystem::path kv_temp_path(const std::filesystem::path& store, std::uint64_t block_id, unsigned writer) {
  auto p = kv_block_path(store, block_id);
  p += fmt::format(".tmp-{}.{}", getpid(), writer);
  return p;
}

std::uint64_t kv_block_seed(std::uint64_t base_seed, std::uint64_t block_id) noexcept {
  return base_seed + kv_block_hash(block_id);
}

void make_kv_block_dirs(const std::filesystem::path& store, std::uint64_t block_id) {
  const std::string name = kv_block_name(block_id);
  const CreatingNames bracket;  // the run's sweep covers them; the handler must not run in between
  make_dir(first_dir(store, name));
  make_dir(second_dir(store, name));
}

KvTempBlock::KvTempBlock(const std::filesystem::path& store, std::uint64_t block_id, unsigned writer, bool direct)
    : temp_(kv_temp_path(store, block_id, writer)),
      final_(kv_block_path(store, block_id)),
      // Registered before it exists: a signal between open() and here would otherwise leave it.
      registered_(CleanupKind::file, temp_.string()) {
  int flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
  if (direct) flags |= O_DIRECT;
  const CreatingNames bracket;
  fd_ = open(temp_.c_str(), flags, 0600);
  if (fd_ < 0 && errno == EEXIST) {
    // Only this writer of this process uses the name: it is a leftover of an earlier process that
    // had our pid.
    unlink(temp_.c_str());
    fd_ = open(temp_.c_str(), flags, 0600);
  }
  if (fd_ < 0) throw_errno(fmt::format("open({}, O_CREAT | O_EXCL{})", temp_.string(), direct ? " | O_DIRECT" : ""));
}

KvTempBlock::~KvTempBlock() {
  if (fd_ >= 0) close(fd_);
  if (!published_) unlink(temp_.c_str());
}

void KvTempBlock::publish() {
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) throw_errno(fmt::format("close({})", temp_.string()));
  // The block's name comes into being here: inside a bracket, so an interrupt's sweep never runs
  // between a check and the rename and misses it.
  if (creating_names([&] { return rename(temp_.c_str(), final_.c_str()); }) != 0) {
    throw_errno(fmt::format("rename({}, {})", temp_.string(), final_.string()));
  }
  published_ = true;
}

void remove_kv_blocks(const std::filesystem::path& store, std::uint64_t blocks) {
  std::set<std::filesystem::path> dirs;
  for (std::uint64_t id = 0; id < blocks; ++id) {
    const std::string name = kv_block_name(id);
    unlink(kv_block_path(store, id).c_str());
    dirs.insert(second_dir(store, name));
    dirs.insert(first_dir(store, name));
  }
  // Deepest first (STORE/ab/cd sorts after STORE/ab); rmdir leaves a directory that is not empty.
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) rmdir(it->c_str());
}

void sweep_kv_blocks(const char* store, unsigned long long blocks) noexcept {
  // STORE/ab/cd/abcd…: the layout of kv_block_path, by hand (std::filesystem and fmt allocate).
  char path[600];
  const std::size_t base = std::strlen(store);
  if (base + 1 + 3 + 3 + 16 + 1 > sizeof path) return;
  std::memcpy(path, store, base);
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned long long id = 0; id < blocks; ++id) {
    char name[16];
    const std::uint64_t h = kv_block_hash(id);
    for (int i = 0; i < 16; ++i) name[i] = kHex[(h >> (60 - 4 * i)) & 0xf];
    std::size_t n = base;
    path[n++] = '/';
    path[n++] = name[0];
    path[n++] = name[1];
    const std::size_t first_end = n;
    path[n++] = '/';
    path[n++] = name[2];
    path[n++] = name[3];
    const std::size_t second_end = n;
    path[n++] = '/';
    std::memcpy(path + n, name, 16);
    path[n + 16] = '\0';
    unlink(path);
    path[second_end] = '\0';
    rmdir(path);  // fails while other blocks are in it: the last one's sweep removes it
    path[first_end] = '\0';
    rmdir(path);
  }
}

}  // namespace xb
