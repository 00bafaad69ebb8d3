// GPUD: the engine moves data between the file and device memory through the direct storage path
// (cuFile), one synchronous IO at a time per thread as gdsio's GPUD threads do, on memory registered
// once (cuFileBufRegister). A write's pattern is stream-copied in from a pinned host buffer first (for
// the application that made it there: the interface has no generator); a verified read goes back out.
#include <fmt/format.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "core/pattern.hpp"
#include "jobs/io/io_data_path.hpp"
#include "memory/host_buffer.hpp"
#include "memory/kinds.hpp"
#include "storage/sync_engine.hpp"

namespace xb {
namespace {

// An IoEngine over one DirectFile, synchronous like psync; like every engine it resumes short
// transfers and reports errors with the file and the offset.
class DirectEngine final : public SyncEngine {
 public:
  DirectEngine(std::unique_ptr<DirectFile> file, const IoFile& io_file, std::string features)
      : SyncEngine(1), file_(std::move(file)), io_file_(io_file), features_(std::move(features)) {}

  std::string features() const override { return features_; }

 private:
  void transfer(IoUnit& u) override {
    const bool read = u.op == IoOp::read;
    const char* call = read ? "direct read" : "direct write";
    while (u.done < u.length) {
      std::size_t n = 0;
      try {
        // The unit's buffer is its slot's start, the base the slot was registered with.
        n = read ? file_->read(u.buffer, u.done, u.length - u.done, u.offset + u.done)
                 : file_->write(u.buffer, u.done, u.length - u.done, u.offset + u.done);
      } catch (const std::system_error& e) {
        if (e.code().value() == EINTR) continue;
        throw_io_error(call, io_file_, u, e.code().value());
      }
      if (n == 0) {
        if (read) throw_end_of_file(call, io_file_, u);
        throw_io_error(call, io_file_, u, EIO);
      }
      u.done += n;
    }
  }

  std::unique_ptr<DirectFile> file_;
  IoFile io_file_;
  std::string features_;
};

class DirectDataPath final : public IoDataPath {
 public:
  explicit DirectDataPath(const IoDataPathSetup& s)
      : direct_(*s.direct),
        file_(s.file),
        seed_(s.seed),
        verify_(s.plan.verify && !is_write(s.plan.pattern)),
        stride_(round_up(s.plan.io_bytes, kHostAlignment)) {
    device_memory_ = s.device->allocate(s.depth * stride_);
    staging_ = s.device->allocate_host(stride_, true);
    for (unsigned i = 0; i < s.depth; ++i) {
      auto* slot = static_cast<std::byte*>(device_memory_->data()) + i * stride_;
      slots_.emplace_back(slot, s.plan.io_bytes);
      // One registration per slot: cuFile takes the registered base, so each unit's buffer is one.
      // Without it (gdsio -b) cuFile moves the data through its own bounce buffers.
      if (s.plan.register_buffers) registrations_.push_back(direct_.register_buffer(slot, stride_));
    }
    stream_ = s.device->create_stream(s.stream_engine);
  }
  ~DirectDataPath() override { drain(*stream_); }

  std::span<const std::span<std::byte>> slots() const override { return slots_; }
  std::unique_ptr<IoEngine> make_engine(const IoEngineSetup& setup) override {
    const IoFile& f = setup.files.front();
    return std::make_unique<DirectEngine>(direct_.open_file(f.fd, f.path), f,
                                          fmt::format("{}: {}", direct_.name(), direct_.mode()));
  }
  void settle(const IoUnit&) override {}
  void prepare_write(IoUnit& u) override {
    fill_pattern({staging(), u.length}, seed_, u.offset);
    stream_->copy({u.buffer, staging(), u.length});
    stream_->synchronize();
  }
  void read_done(const IoUnit& u) override {
    if (!verify_) return;
    stream_->copy({staging(), u.buffer, u.length});
    stream_->synchronize();
    verify_io_data({staging(), u.length}, u.offset, file_, seed_, ", as it arrived in device memory");
  }

 private:
  std::byte* staging() const { return static_cast<std::byte*>(staging_->data()); }

  DirectStorage& direct_;
  IoFile file_;
  std::uint64_t seed_;
  bool verify_;
  std::size_t stride_;
  std::unique_ptr<Allocation> device_memory_;
  std::unique_ptr<Allocation> staging_;  // pinned: a write's pattern on its way in, a checked read on its way out
  std::vector<std::span<std::byte>> slots_;
  std::vector<std::unique_ptr<Registration>> registrations_;  // before the memory goes
  std::unique_ptr<Stream> stream_;                             // last: destroyed first
};

}  // namespace

std::unique_ptr<IoDataPath> make_direct_data_path(const IoDataPathSetup& setup) {
  if (setup.device == nullptr || setup.direct == nullptr) {
    throw std::logic_error("io job: GPUD needs a device and its direct storage");
  }
  return std::make_unique<DirectDataPath>(setup);
}

}  // namespace xb
