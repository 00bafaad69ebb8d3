// O_DIRECT-filled host memory (dev-sandbox's `--iodirect true`): an aligned buffer whose content
// arrives from a backing file read with O_DIRECT, bypassing the page cache, as UCM's direct file read
// path does. The backing file is written with the verification pattern, so the loaded buffer's
// content is known and a copy from it can be verified. The file is removed as soon as it is loaded.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <random>

#include "core/cleanup.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/size.hpp"
#include "core/unique_fd.hpp"
#include "memory/kinds.hpp"

namespace xb {
namespace {

// The chunk moved per read()/write() call: large enough to stream, small enough to stay aligned.
constexpr std::size_t kChunk = 8u << 20;

void write_backing_file(const std::string& path, std::span<std::byte> staging, std::uint64_t seed) {
  UniqueFd fd(creating_names([&] { return open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_DIRECT | O_NOFOLLOW, 0600); }));
  if (fd.get() < 0) throw_errno(fmt::format("open({}, O_DIRECT) for the O_DIRECT backing file", path));
  // Fill the staging (the buffer itself) with the pattern and write it out; the read that follows
  // must bring the same bytes back through O_DIRECT.
  fill_pattern(staging, seed, 0);
  for (std::size_t off = 0; off < staging.size(); off += kChunk) {
    const std::size_t n = std::min(kChunk, staging.size() - off);
    const ssize_t w = pwrite(fd.get(), staging.data() + off, n, static_cast<off_t>(off));
    if (w != static_cast<ssize_t>(n)) throw_errno(fmt::format("pwrite({}, offset {})", path, off));
  }
  if (fdatasync(fd.get()) != 0) throw_errno(fmt::format("fdatasync({})", path));
}

void read_backing_file(const std::string& path, std::span<std::byte> target) {
  UniqueFd fd(open(path.c_str(), O_RDONLY | O_DIRECT | O_NOFOLLOW));
  if (fd.get() < 0) throw_errno(fmt::format("open({}, O_DIRECT)", path));
  for (std::size_t off = 0; off < target.size(); off += kChunk) {
    const std::size_t n = std::min(kChunk, target.size() - off);
    const ssize_t r = pread(fd.get(), target.data() + off, n, static_cast<off_t>(off));
    if (r != static_cast<ssize_t>(n)) throw_errno(fmt::format("pread({}, offset {}, O_DIRECT)", path, off));
  }
}

class OdirectBuffer final : public MappedBuffer {
 public:
  OdirectBuffer(std::size_t bytes, const std::filesystem::path& dir, std::uint64_t seed)
      : MappedBuffer(HostMemoryKind::odirect, round_up(bytes, kHostAlignment)) {
    size_ = bytes;
    const std::string path =
        (dir / fmt::format(".xferbench-odirect-{}-{:016x}", getpid(), std::random_device{}())).string();
    ScopedCleanup cleanup(CleanupKind::file, path);
    const std::span<std::byte> whole(data(), round_up(bytes, kHostAlignment));
    try {
      write_backing_file(path, whole, seed);
      // Scrub before loading so the content provably came from the file.
      std::fill(whole.begin(), whole.end(), std::byte{0});
      read_backing_file(path, whole);
    } catch (...) {
      unlink(path.c_str());
      throw;
    }
    unlink(path.c_str());
  }
};

}  // namespace

std::unique_ptr<HostBuffer> make_odirect_buffer(std::size_t bytes, const std::filesystem::path& dir,
                                                std::uint64_t seed) {
  return std::make_unique<OdirectBuffer>(bytes, dir, seed);
}

}  // namespace xb
