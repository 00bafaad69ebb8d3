// psync: pread/pwrite, one IO at a time (fio's psync). submit() performs the staged IOs in order,
// so a deeper queue gains nothing; the registry says so (max_queue_depth 1) and the io job clamps.
#include <unistd.h>

#include <cerrno>

#include "storage/sync_engine.hpp"

namespace xb {
namespace {

class PsyncEngine final : public SyncEngine {
 public:
  explicit PsyncEngine(const IoEngineSetup& setup) : SyncEngine(setup.options.queue_depth), files_(setup.files) {}

  std::string features() const override { return "synchronous"; }

 private:
  void transfer(IoUnit& u) override {
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
};

}  // namespace

std::unique_ptr<IoEngine> make_psync_engine(const IoEngineSetup& setup) { return std::make_unique<PsyncEngine>(setup); }

}  // namespace xb
