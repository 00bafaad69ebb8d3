// POSIX shared memory that forked processes share: the MLA topology's one host buffer fanned out to
// every device. Created exclusively with mode 0600 (no other user can map it) under a name that holds
// the pid and a random tag; unlinked by the destructor, and by the signal handler on SIGINT/SIGTERM.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <random>

#include "core/cleanup.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "memory/kinds.hpp"

namespace xb {
namespace {

class ShmBuffer final : public HostBuffer {
 public:
  explicit ShmBuffer(std::size_t bytes)
      : HostBuffer(HostMemoryKind::shm, nullptr, bytes),
        name_(fmt::format("/xferbench-{}-{:016x}", getpid(), std::random_device{}())),
        cleanup_(CleanupKind::shm, name_) {
    const int fd = creating_names([&] { return shm_open(name_.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600); });
    if (fd < 0) throw_errno(fmt::format("shm_open({})", name_));
    try {
      mapped_ = round_up(bytes == 0 ? 1 : bytes, kHostAlignment);
      if (ftruncate(fd, static_cast<off_t>(mapped_)) != 0) {
        throw_errno(fmt::format("ftruncate({}, {})", name_, format_bytes_human(mapped_)));
      }
      void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
      if (p == MAP_FAILED) throw_errno(fmt::format("mmap({})", name_));
      data_ = static_cast<std::byte*>(p);
      close(fd);
    } catch (...) {
      close(fd);
      shm_unlink(name_.c_str());
      throw;
    }
  }

  ~ShmBuffer() override {
    munmap(data_, mapped_);
    shm_unlink(name_.c_str());
  }

 private:
  std::string name_;
  ScopedCleanup cleanup_;
  std::size_t mapped_ = 0;
};

}  // namespace

std::unique_ptr<HostBuffer> make_shm_buffer(std::size_t bytes) { return std::make_unique<ShmBuffer>(bytes); }

}  // namespace xb
