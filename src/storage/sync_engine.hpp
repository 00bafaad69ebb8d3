#pragma once
// The queue/submit/reap of an engine whose IOs are synchronous calls (pread/pwrite, cuFileRead/
// cuFileWrite): submit() performs the staged IOs in order, so everything submitted is complete and
// reap's `min` is always met. A synchronous engine supplies transfer() only; a deeper queue gains
// it nothing, so its registry row (or the io job, for GPUD) keeps the depth at 1.
#include <algorithm>
#include <span>
#include <vector>

#include "storage/io_engine.hpp"

namespace xb {

class SyncEngine : public IoEngine {
 public:
  // Room for `queue_depth` units up front, so the IO loop never grows the lists.
  explicit SyncEngine(unsigned queue_depth) {
    staged_.reserve(queue_depth);
    done_.reserve(queue_depth);
  }

  void queue(IoUnit& unit) final { staged_.push_back(&unit); }

  void submit() final {
    for (IoUnit* u : staged_) {
      transfer(*u);
      done_.push_back(u);
    }
    staged_.clear();
  }

  std::size_t reap(std::size_t, std::span<IoUnit*> out) final {
    const std::size_t n = std::min(out.size(), done_.size());
    for (std::size_t i = 0; i < n; ++i) out[i] = done_[i];
    done_.erase(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
  }

 protected:
  // Moves all of the unit's bytes (resuming short transfers, retrying EINTR) or throws.
  virtual void transfer(IoUnit& unit) = 0;

 private:
  std::vector<IoUnit*> staged_;
  std::vector<IoUnit*> done_;
};

}  // namespace xb
