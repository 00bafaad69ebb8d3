// libaio: Linux native AIO (fio's libaio). Truly asynchronous only with O_DIRECT; with buffered
// files io_submit does the IO inline, which is what fio measures too.
#include <libaio.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <vector>

#include "core/error.hpp"
#include "storage/io_engine.hpp"

namespace xb {
namespace {

class LibaioEngine final : public IoEngine {
 public:
  explicit LibaioEngine(const IoEngineSetup& setup)
      : files_(setup.files), iocbs_(setup.buffers.size()), events_(setup.options.queue_depth) {
    const unsigned depth = setup.options.queue_depth;
    const int rc = io_setup(static_cast<int>(depth), &ctx_);  // libaio returns -errno
    if (rc < 0) {
      const std::string call = fmt::format("io_setup({})", depth);
      // EAGAIN: the system-wide /proc/sys/fs/aio-max-nr is used up; ENOSYS: no AIO in this kernel.
      if (rc == -EAGAIN || rc == -ENOSYS || rc == -EPERM) {
        throw Unavailable(fmt::format("libaio: {} failed: {}", call, std::strerror(-rc)));
      }
      throw SystemError(call, -rc);
    }
    staged_.reserve(depth);
  }
  ~LibaioEngine() override { io_destroy(ctx_); }  // waits for (or cancels) whatever is in flight
  LibaioEngine(const LibaioEngine&) = delete;
  LibaioEngine& operator=(const LibaioEngine&) = delete;

  void queue(IoUnit& unit) override { staged_.push_back(prepare(unit)); }

  void submit() override {
    std::size_t at = 0;
    while (at < staged_.size()) {
      const int rc = io_submit(ctx_, static_cast<long>(staged_.size() - at), staged_.data() + at);
      if (rc == -EINTR) continue;
      if (rc <= 0) {
        const IoUnit& u = *static_cast<IoUnit*>(staged_[at]->data);
        throw_io_error("io_submit", files_[u.file], u, rc == 0 ? EAGAIN : -rc);
      }
      at += static_cast<std::size_t>(rc);  // io_submit may take only part of the batch
    }
    in_flight_ += staged_.size();
    staged_.clear();
  }

  std::size_t reap(std::size_t min, std::span<IoUnit*> out) override {
    std::size_t n = 0;
    while (n < out.size()) {
      const std::size_t want = std::min(out.size() - n, events_.size());
      const long need = n < min ? static_cast<long>(std::min(min - n, want)) : 0;
      if (need == 0 && in_flight_ == 0) break;
      const int rc = io_getevents(ctx_, need, static_cast<long>(want), events_.data(), nullptr);
      if (rc == -EINTR) continue;
      if (rc < 0) throw SystemError(fmt::format("io_getevents({} in flight)", in_flight_), -rc);
      if (rc == 0) break;  // only when need == 0: nothing more is done yet
      for (int i = 0; i < rc; ++i) {
        IoUnit& u = *static_cast<IoUnit*>(events_[static_cast<std::size_t>(i)].data);
        --in_flight_;
        const auto res = static_cast<long>(events_[static_cast<std::size_t>(i)].res);  // -errno on failure
        const bool read = u.op == IoOp::read;
        if (res < 0) throw_io_error(read ? "libaio pread" : "libaio pwrite", files_[u.file], u, static_cast<int>(-res));
        if (res == 0) {
          if (read) throw_end_of_file("libaio pread", files_[u.file], u);
          throw_io_error("libaio pwrite", files_[u.file], u, EIO);
        }
        u.done += static_cast<std::size_t>(res);
        if (u.done < u.length) {  // a short transfer: send the rest at once
          iocb* cb = prepare(u);
          int s;
          while ((s = io_submit(ctx_, 1, &cb)) == -EINTR) {
          }
          if (s != 1) throw_io_error("io_submit", files_[u.file], u, s < 0 ? -s : EAGAIN);
          ++in_flight_;
          continue;
        }
        out[n++] = &u;
      }
    }
    return n;
  }

  std::string features() const override { return "io_submit/io_getevents"; }

 private:
  iocb* prepare(IoUnit& u) {
    iocb* cb = &iocbs_[u.slot];  // one control block per slot: slots are unique among in-flight units
    const int fd = files_[u.file].fd;
    const auto off = static_cast<long long>(u.offset + u.done);
    if (u.op == IoOp::read) io_prep_pread(cb, fd, u.buffer + u.done, u.length - u.done, off);
    else io_prep_pwrite(cb, fd, u.buffer + u.done, u.length - u.done, off);
    cb->data = &u;
    return cb;
  }

  std::span<const IoFile> files_;
  io_context_t ctx_{};
  std::vector<iocb> iocbs_;
  std::vector<io_event> events_;
  std::vector<iocb*> staged_;
  std::size_t in_flight_ = 0;
};

}  // namespace

std::unique_ptr<IoEngine> make_libaio_engine(const IoEngineSetup& setup) { return std::make_unique<LibaioEngine>(setup); }

}  // namespace xb
