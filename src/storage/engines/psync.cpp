// psync: pread/pwrite, one IO at a time (fio's psync). submit() performs the staged IOs in order,
// so a deeper queue gains nothing; the registry says so (max_queue_depth 1) and the io job clamps.
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "storage/io_engine.hpp"

namespace xb {
namespace {

class PsyncEngine final : public IoEngine {
 public:
  explicit PsyncEngine(const IoEngineSetup& setup) : files_(setup.files) {
    staged_.reserve(setup.options.queue_depth);
    done_.reserve(setup.options.queue_depth);
  }

  void queue(IoUnit& unit) override { staged_.push_back(&unit); }

  void submit() override {
    for (IoUnit* u : staged_) {
      transfer(*u);
      done_.push_back(u);
    }
    staged_.clear();
  }

  std::size_t reap(std::size_t, std::span<IoUnit*> out) override {
    // Everything submitted is already complete, so `min` is always met.
    const std::size_t n = std::min(out.size(), done_.size());
    for (std::size_t i = 0; i < n; ++i) out[i] = done_[i];
    done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }

  std::string features() const override { return "synchronous"; }

 private:
  void transfer(IoUnit& u) const {
    const IoFile& f = files_[u.file];
    const bool read = u.op == IoOp::read;
    while (u.done < u.length) {
      const std::size_t left = u.length - u.done;
      const off_t at = static_cast<off_t>(u.offset + u.done);
      const ssize_t n = read ? pread(f.fd, u.buffer + u.done, left, at) : pwrite(f.fd, u.buffer + u.done, left, at);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw_io_error(read ? "pread" : "pwrite", f, u, errno);
      }
      if (n == 0) {
        // pwrite returning 0 for a non-zero length has no errno; treat it as the device refusing.
        if (read) throw_end_of_file("pread", f, u);
        throw_io_error("pwrite", f, u, EIO);
      }
      u.done += static_cast<std::size_t>(n);  // a short transfer: continue from where it stopped
    }
  }

  std::span<const IoFile> files_;
  std::vector<IoUnit*> staged_;
  std::vector<IoUnit*> done_;
};

}  // namespace

std::unique_ptr<IoEngine> make_psync_engine(const IoEngineSetup& setup) { return std::make_unique<PsyncEngine>(setup); }

}  // namespace xb
