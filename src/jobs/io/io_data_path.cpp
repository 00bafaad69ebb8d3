// CPUONLY and CPU_GPU data paths, the factory and the data check. GPUD: direct_data_path.cpp.
#include "jobs/io/io_data_path.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "core/pattern.hpp"
#include "jobs/io/device_stage.hpp"
#include "memory/host_buffer.hpp"
#include "memory/kinds.hpp"

namespace xb {

void verify_io_data(std::span<const std::byte> data, std::uint64_t offset, const IoFile& file, std::uint64_t seed,
                    std::string_view where) {
  if (auto bad = find_pattern_mismatch(data, seed, offset)) {
    throw std::runtime_error(fmt::format(
        "verify failed: {} byte at offset {} is 0x{:02x}, expected 0x{:02x} (in the {}-byte IO at offset {}{})", file.path,
        *bad, static_cast<unsigned>(data[*bad - offset]), pattern_byte(seed, *bad), data.size(), offset, where));
  }
}

namespace {

// CPUONLY: page-aligned pageable buffers, one per IO in flight; the data is checked where it lands.
class HostDataPath final : public IoDataPath {
 public:
  explicit HostDataPath(const IoDataPathSetup& s)
      : engine_(s.engine), file_(s.file), seed_(s.seed), verify_(s.plan.verify) {
    // Each slot starts on a page, whatever the IO size: O_DIRECT's memory alignment is at most that.
    const std::size_t stride = round_up(s.plan.io_bytes, kHostAlignment);
    pool_ = make_host_buffer(HostMemoryKind::pageable, s.depth * stride);
    for (unsigned i = 0; i < s.depth; ++i) slots_.emplace_back(pool_->data() + i * stride, s.plan.io_bytes);
  }
  std::span<const std::span<std::byte>> slots() const override { return slots_; }
  std::unique_ptr<IoEngine> make_engine(const IoEngineSetup& setup) override { return engine_.make(setup); }
  void settle(const IoUnit&) override {}
  void prepare_write(IoUnit& u) override { fill_pattern({u.buffer, u.length}, seed_, u.offset); }
  void read_done(const IoUnit& u) override {
    if (verify_) verify_io_data({u.buffer, u.length}, u.offset, file_, seed_, "");
  }

 private:
  const IoEngineInfo& engine_;
  IoFile file_;
  std::uint64_t seed_;
  bool verify_;
  std::unique_ptr<HostBuffer> pool_;
  std::vector<std::span<std::byte>> slots_;
};

// CPU_GPU, CPU_ASYNC_GPU and CPU_CACHED_GPU: the engine works on pinned bounce buffers; a read is copied
// on to device memory (before the next IO, or with CPU_ASYNC_GPU while the next IOs run), checked there.
class BounceDataPath final : public IoDataPath {
 public:
  explicit BounceDataPath(const IoDataPathSetup& s)
      : engine_(s.engine),
        file_(s.file),
        seed_(s.seed),
        overlap_(s.plan.transfer == IoTransfer::cpu_async_gpu),
        stage_(*s.device, s.stream_engine, kBounceSetsPerDepth * s.depth, s.plan.io_bytes,
               s.plan.verify && !is_write(s.plan.pattern)) {}
  std::span<const std::span<std::byte>> slots() const override { return stage_.bounce(); }
  std::unique_ptr<IoEngine> make_engine(const IoEngineSetup& setup) override { return engine_.make(setup); }
  void settle(const IoUnit& u) override {
    const auto landed = stage_.settle(u.slot);
    if (!landed.empty()) verify_io_data(landed, u.offset, file_, seed_, ", as it arrived in device memory");
  }
  void prepare_write(IoUnit& u) override {
    fill_pattern({u.buffer, u.length}, seed_, u.offset);
    stage_.from_device(u.slot, u.length);
  }
  void read_done(const IoUnit& u) override {
    stage_.land(u.slot, u.length);
    if (!overlap_) settle(u);  // the copy is done before the thread goes on (gdsio's cudaMemcpy)
  }

 private:
  const IoEngineInfo& engine_;
  IoFile file_;
  std::uint64_t seed_;
  bool overlap_;
  DeviceStage stage_;
};

}  // namespace

std::unique_ptr<IoDataPath> make_io_data_path(const IoDataPathSetup& setup) {
  switch (setup.plan.transfer) {
    case IoTransfer::cpu: return std::make_unique<HostDataPath>(setup);
    case IoTransfer::cpu_gpu:
    case IoTransfer::cpu_async_gpu:
    case IoTransfer::cpu_cached_gpu: return std::make_unique<BounceDataPath>(setup);
    case IoTransfer::gpu_direct: return make_direct_data_path(setup);
    case IoTransfer::gpu_direct_async:
    case IoTransfer::gpu_batch:
    case IoTransfer::gpu_batch_stream: break;  // refused by validate_io_plan (no backend drives them)
  }
  throw std::logic_error("io job: a transfer type without a data path");
}

}  // namespace xb
