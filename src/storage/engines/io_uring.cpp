// io_uring (fio's io_uring): one ring per thread, sized to the queue depth. The buffer pool is
// registered (IORING_OP_READ_FIXED/WRITE_FIXED: the kernel pins the pages once, not per IO) and
// the files too (IOSQE_FIXED_FILE: no file reference taken per IO); each is dropped silently when
// the kernel refuses it (a memlock limit, an old kernel) and features() reports what is used.
#include <liburing.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sys/uio.h>
#include <vector>

#include "core/error.hpp"
#include "storage/io_engine.hpp"

namespace xb {
namespace {

class IoUringEngine final : public IoEngine {
 public:
  explicit IoUringEngine(const IoEngineSetup& setup) : files_(setup.files) {
    const unsigned depth = setup.options.queue_depth;
    const int rc = io_uring_queue_init(depth, &ring_, 0);  // liburing returns -errno
    if (rc < 0) {
      // ENOSYS: no io_uring in the kernel; EPERM: disabled (kernel.io_uring_disabled, seccomp).
      if (rc == -ENOSYS || rc == -EPERM) {
        throw Unavailable(fmt::format("io_uring: io_uring_queue_init({}) failed: {}", depth, std::strerror(-rc)));
      }
      throw SystemError(fmt::format("io_uring_queue_init({})", depth), -rc);
    }
    if (setup.options.registered_buffers && !setup.buffers.empty()) {
      std::vector<iovec> iov;
      for (const auto& b : setup.buffers) iov.push_back({b.data(), b.size()});
      fixed_buffers_ = io_uring_register_buffers(&ring_, iov.data(), static_cast<unsigned>(iov.size())) == 0;
    }
    if (setup.options.fixed_files && !files_.empty()) {
      std::vector<int> fds;
      for (const auto& f : files_) fds.push_back(f.fd);
      fixed_files_ = io_uring_register_files(&ring_, fds.data(), static_cast<unsigned>(fds.size())) == 0;
    }
  }
  // Waits for in-flight requests to be cancelled or done and unregisters buffers and files.
  ~IoUringEngine() override { io_uring_queue_exit(&ring_); }
  IoUringEngine(const IoUringEngine&) = delete;
  IoUringEngine& operator=(const IoUringEngine&) = delete;

  void queue(IoUnit& u) override {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) {  // cannot happen while in flight <= depth, but never overwrite a slot
      submit();
      sqe = io_uring_get_sqe(&ring_);
      if (sqe == nullptr) throw_io_error("io_uring_get_sqe", files_[u.file], u, EBUSY);
    }
    const int fd = fixed_files_ ? static_cast<int>(u.file) : files_[u.file].fd;
    std::byte* buf = u.buffer + u.done;
    const auto len = static_cast<unsigned>(u.length - u.done);
    const std::uint64_t off = u.offset + u.done;
    const int slot = static_cast<int>(u.slot);
    if (u.op == IoOp::read) {
      if (fixed_buffers_) io_uring_prep_read_fixed(sqe, fd, buf, len, off, slot);
      else io_uring_prep_read(sqe, fd, buf, len, off);
    } else {
      if (fixed_buffers_) io_uring_prep_write_fixed(sqe, fd, buf, len, off, slot);
      else io_uring_prep_write(sqe, fd, buf, len, off);
    }
    if (fixed_files_) sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, &u);
    ++staged_;
    staged_unit_ = &u;
  }

  void submit() override {
    while (staged_ > 0) {
      const int rc = io_uring_submit(&ring_);
      if (rc == -EINTR) continue;
      if (rc <= 0) throw_io_error("io_uring_submit", files_[staged_unit_->file], *staged_unit_, rc == 0 ? EAGAIN : -rc);
      staged_ -= std::min(staged_, static_cast<std::size_t>(rc));
    }
  }

  std::size_t reap(std::size_t min, std::span<IoUnit*> out) override {
    std::size_t n = 0;
    while (n < out.size()) {
      io_uring_cqe* cqe = nullptr;
      const int rc = n < min ? io_uring_wait_cqe(&ring_, &cqe) : io_uring_peek_cqe(&ring_, &cqe);
      if (rc == -EINTR) continue;
      if (rc == -EAGAIN && n >= min) break;  // peek: nothing more is done yet
      if (rc < 0) throw SystemError("io_uring_wait_cqe", -rc);
      IoUnit& u = *static_cast<IoUnit*>(io_uring_cqe_get_data(cqe));
      const int res = cqe->res;  // bytes, or -errno
      io_uring_cqe_seen(&ring_, cqe);
      const bool read = u.op == IoOp::read;
      if (res < 0) throw_io_error(read ? "io_uring read" : "io_uring write", files_[u.file], u, -res);
      if (res == 0) {
        if (read) throw_end_of_file("io_uring read", files_[u.file], u);
        throw_io_error("io_uring write", files_[u.file], u, EIO);
      }
      u.done += static_cast<std::size_t>(res);
      if (u.done < u.length) {  // a short transfer: send the rest at once
        queue(u);
        submit();
        continue;
      }
      out[n++] = &u;
    }
    return n;
  }

  std::string features() const override {
    std::string f = fixed_buffers_ ? "registered buffers" : "unregistered buffers";
    f += fixed_files_ ? ", fixed files" : ", plain file descriptors";
    return f;
  }

 private:
  std::span<const IoFile> files_;
  io_uring ring_{};
  bool fixed_buffers_ = false;
  bool fixed_files_ = false;
  std::size_t staged_ = 0;
  IoUnit* staged_unit_ = nullptr;  // the last staged, to name a file when submission fails
};

}  // namespace

std::unique_ptr<IoEngine> make_io_uring_engine(const IoEngineSetup& setup) {
  return std::make_unique<IoUringEngine>(setup);
}

}  // namespace xb
