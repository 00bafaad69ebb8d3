#include "backends/cuda/cuda_stream.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "backends/cuda/cuda_batch_submitter.hpp"
#include "backends/cuda/cuda_copy_plan.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_sm_copy.hpp"
#include "core/error.hpp"

namespace xb::cuda {
namespace {

class CudaEvent final : public Event {
 public:
  explicit CudaEvent(int device) : device_(device) {
    check(cudaSetDevice(device), "cudaSetDevice", fmt::format("device {}", device));
    check(cudaEventCreateWithFlags(&event_, cudaEventDefault), "cudaEventCreate", fmt::format("device {}", device));
  }
  ~CudaEvent() override { (void)cudaEventDestroy(event_); }
  void synchronize() override { check(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
  bool ready() override {
    const cudaError_t e = cudaEventQuery(event_);
    if (e == cudaErrorNotReady) {
      // Not an error, but the runtime keeps it as the thread's last error: consume it, so a later
      // cudaGetLastError (the sm kernel's launch check) does not report it as its own.
      (void)cudaGetLastError();
      return false;
    }
    check(e, "cudaEventQuery");
    return true;
  }
  cudaEvent_t get() const { return event_; }
  int device() const { return device_; }

 private:
  int device_;
  cudaEvent_t event_ = nullptr;
};

CudaEvent& as_cuda(Event& e) {
  auto* c = dynamic_cast<CudaEvent*>(&e);
  if (c == nullptr) throw std::invalid_argument("a CUDA stream was given an event of another backend");
  return *c;
}

// What every engine shares: the stream itself, its device, events and synchronization.
class CudaStreamBase : public Stream {
 public:
  CudaStreamBase(int device, std::string engine) : device_(device), engine_(std::move(engine)) {
    check(cudaSetDevice(device), "cudaSetDevice", fmt::format("device {}", device));
    // Non-blocking: no implicit ordering with the legacy default stream, as the copy job's
    // streams are meant to run side by side.
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate",
          fmt::format("device {}", device));
  }
  ~CudaStreamBase() override { (void)cudaStreamDestroy(stream_); }

  void record(Event& event) override {
    flush();
    check(cudaEventRecord(as_cuda(event).get(), stream_), "cudaEventRecord", where());
  }
  void wait(Event& event) override {
    flush();
    check(cudaStreamWaitEvent(stream_, as_cuda(event).get(), 0), "cudaStreamWaitEvent", where());
  }
  void synchronize() override {
    flush();
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", where());
  }
  std::string_view engine() const override { return engine_; }
  // Work a stream holds back (the batch engine) goes out before anything that observes the stream.
  void flush() override {}
  StreamHandle handle() {
    flush();
    return {stream_, device_};
  }

 protected:
  std::string where() const { return fmt::format("{} stream on cuda device {}", engine_, device_); }

  int device_;
  std::string engine_;
  cudaStream_t stream_ = nullptr;
};

class CeStream : public CudaStreamBase {
 public:
  CeStream(int device, std::string engine) : CudaStreamBase(device, std::move(engine)), batches_(stream_, device) {}
  void copy(const CopyOp& op) override {
    if (op.bytes == 0) return;
    check(cudaMemcpyAsync(op.dst, op.src, op.bytes, cudaMemcpyDefault, stream_), "cudaMemcpyAsync",
          fmt::format("{} bytes {} -> {}, {}", op.bytes, op.src, op.dst, where()));
  }
  void copy_batch(std::span<const CopyOp> ops) override {
    flush();
    // One submission orders nothing within it: a copy depending on an earlier one of the list
    // starts the next submission, so the list runs as if copied in order.
    for (const CopyRun& run : independent_runs(ops)) submit(ops.subspan(run.begin, run.end - run.begin));
  }
  std::string submission() const override { return batches_.report(); }

 protected:
  // Graph capture and instantiation use the current device: the stream's, whichever thread submits.
  void submit(std::span<const CopyOp> ops) {
    check(cudaSetDevice(device_), "cudaSetDevice", where());
    batches_.submit(ops);
  }

  BatchSubmitter batches_;
};

class BatchStream final : public CeStream {
 public:
  using CeStream::CeStream;
  void copy(const CopyOp& op) override {
    // One batch has no order within it: a copy that depends on a held one waits for the next batch.
    if (held_.conflicts(op)) flush();
    held_.hold(op);
  }
  void flush() override {
    if (!held_.empty()) submit(held_.take());
  }

 private:
  HeldCopies held_;
};

class SmStream final : public CudaStreamBase {
 public:
  SmStream(int device, std::string engine, int sm_count) : CudaStreamBase(device, std::move(engine)), sm_count_(sm_count) {
    // Loaded now, not at the first copy, which may come while a gate's wait runs (cuda_sm_copy.hpp).
    check(preload_sm_copy(), "cudaFuncGetAttributes", fmt::format("loading the sm copy kernel, {}", where()));
  }
  void copy(const CopyOp& op) override {
    if (op.bytes == 0) return;
    // First the device: cudaPointerGetAttributes' devicePointer is the address on the current one.
    check(cudaSetDevice(device_), "cudaSetDevice", where());
    void* dst = device_address(op.dst, "destination");
    const void* src = device_address(op.src, "source");
    const SmLaunch l = sm_launch_for(dst, src, op.bytes, sm_count_);
    check(launch_sm_copy(dst, src, l.blocks, l.threads, l.vector_bytes, l.tail_bytes, stream_), "the sm copy kernel launch",
          fmt::format("{} bytes, {}", op.bytes, where()));
  }
  void copy_batch(std::span<const CopyOp> ops) override {
    for (const CopyOp& op : ops) copy(op);
  }

 private:
  // The address the kernel uses: device memory as it is, pinned or registered host memory through
  // its mapping. Pageable host memory has none: the sm engine cannot copy it.
  void* device_address(const void* p, std::string_view side) const {
    cudaPointerAttributes attr{};
    check(cudaPointerGetAttributes(&attr, p), "cudaPointerGetAttributes", where());
    if (attr.type == cudaMemoryTypeUnregistered || attr.devicePointer == nullptr) {
      throw Unavailable(fmt::format("the sm engine copies through device addresses, and the {} at {} is pageable "
                                    "host memory (use pinned or registered memory, or the ce engine)",
                                    side, p));
    }
    return attr.devicePointer;
  }

  int sm_count_;
};

}  // namespace

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names{"ce", "batch", "sm"};
  return names;
}

std::unique_ptr<Stream> make_stream(int device, std::string_view engine, int sm_count) {
  if (engine == "ce") return std::make_unique<CeStream>(device, "ce");
  if (engine == "batch") return std::make_unique<BatchStream>(device, "batch");
  if (engine == "sm") return std::make_unique<SmStream>(device, "sm", sm_count);
  return nullptr;
}

StreamHandle flushed_handle(Stream& stream) {
  auto* s = dynamic_cast<CudaStreamBase*>(&stream);
  if (s == nullptr) throw std::invalid_argument("a CUDA gate was asked to hold a stream of another backend");
  return s->handle();
}

std::unique_ptr<Event> make_event(int device) { return std::make_unique<CudaEvent>(device); }

double elapsed_us(Event& start, Event& end) {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, as_cuda(start).get(), as_cuda(end).get()), "cudaEventElapsedTime");
  return static_cast<double>(ms) * 1000.0;
}

}  // namespace xb::cuda
