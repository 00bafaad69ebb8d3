#include "backends/cuda/cuda_gate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_gate_kernel.hpp"
#include "backends/cuda/cuda_stream.hpp"

namespace xb::cuda {
namespace {

// The two words in pinned, mapped host memory: what the host published, and the generation of a
// wait that gave up (0: none; generation 0 is never used).
constexpr std::size_t kPublished = 0;
constexpr std::size_t kGaveUp = 1;

class CudaGate final : public Gate {
 public:
  CudaGate(int device, std::chrono::nanoseconds bound) : device_(device), bound_(bound) {
    check(cudaSetDevice(device), "cudaSetDevice", where());
    void* host = nullptr;
    check(cudaHostAlloc(&host, 2 * sizeof(std::uint32_t), cudaHostAllocMapped | cudaHostAllocPortable),
          "cudaHostAlloc", fmt::format("the word of {}", where()));
    words_ = static_cast<std::uint32_t*>(host);
    words_[kPublished] = 0;
    words_[kGaveUp] = 0;
    void* mapped = nullptr;
    const cudaError_t e = cudaHostGetDevicePointer(&mapped, host, 0);
    if (e != cudaSuccess) {
      (void)cudaFreeHost(host);
      check(e, "cudaHostGetDevicePointer", fmt::format("the word of {}", where()));
    }
    device_words_ = static_cast<std::uint32_t*>(mapped);
  }

  CudaGate(const CudaGate&) = delete;
  CudaGate& operator=(const CudaGate&) = delete;

  ~CudaGate() override {
    open();
    // The last generation's waits end now; the memory they read goes only once they have.
    for (std::size_t i = 0; i < holds_; ++i) (void)cudaEventSynchronize(waits_[i].event);
    for (const Wait& w : waits_) (void)cudaEventDestroy(w.event);
    (void)cudaFreeHost(words_);
  }

  void hold(Stream& stream) override {
    const StreamHandle h = flushed_handle(stream);
    check(cudaSetDevice(h.device), "cudaSetDevice", where());
    preload(h.device);
    check(launch_gate_wait(device_words_ + kPublished, generation_, static_cast<unsigned long long>(bound_.count()),
                           device_words_ + kGaveUp, h.stream),
          "the gate's wait kernel launch", fmt::format("a stream of cuda device {}, {}", h.device, where()));
    // An event behind each wait, so the destructor knows when the kernels reading the word are done.
    if (holds_ == waits_.size()) waits_.push_back({-1, nullptr});
    Wait& w = waits_[holds_];
    if (w.device != h.device) {  // an event is recorded only on a stream of its own device
      if (w.event != nullptr) (void)cudaEventDestroy(w.event);
      w.event = nullptr;
      check(cudaEventCreateWithFlags(&w.event, cudaEventDisableTiming), "cudaEventCreate", where());
      w.device = h.device;
    }
    check(cudaEventRecord(w.event, h.stream), "cudaEventRecord", where());
    ++holds_;
  }

  void open() override {
    published_ = generation_;
    std::atomic_ref<std::uint32_t>(words_[kPublished]).store(published_, std::memory_order_release);
  }

  void close() override {
    generation_ = published_ + 1;
    if (generation_ == 0) generation_ = 1;  // 0 means "none" in the gave-up word
    holds_ = 0;
  }

  void confirm_held() override {
    std::atomic_ref<std::uint32_t> gave_up(words_[kGaveUp]);
    const std::uint32_t g = gave_up.load(std::memory_order_acquire);
    if (g == 0) return;
    gave_up.store(0, std::memory_order_relaxed);
    throw std::runtime_error(fmt::format(
        "{} was not opened within {} ms, so a held stream went on by itself (window {}): the window's device time "
        "would include its enqueuing, and is not reported",
        where(), std::chrono::duration_cast<std::chrono::milliseconds>(bound_).count(), g));
  }

 private:
  struct Wait {
    int device;
    cudaEvent_t event;
  };

  std::string where() const { return fmt::format("the gate of cuda device {}", device_); }

  // The wait kernel is loaded into a device's context before its first wait there, so a later
  // wait is never the first launch behind a running one (lazy module loading, cuda_sm_copy.hpp;
  // the sm engine's streams load their kernel when made). The current device is `device`.
  void preload(int device) {
    if (std::find(preloaded_.begin(), preloaded_.end(), device) != preloaded_.end()) return;
    check(preload_gate_wait(), "cudaFuncGetAttributes", fmt::format("loading the wait kernel, {}", where()));
    preloaded_.push_back(device);
  }

  int device_;
  std::chrono::nanoseconds bound_;
  std::uint32_t* words_ = nullptr;         // host address
  std::uint32_t* device_words_ = nullptr;  // the same words, as the kernels reach them
  std::uint32_t published_ = 0;
  std::uint32_t generation_ = 1;  // closed when made: the first waits hold until the first open()
  std::vector<Wait> waits_;
  std::vector<int> preloaded_;  // devices whose contexts have the kernels loaded
  std::size_t holds_ = 0;  // waits queued since the last close()
};

}  // namespace

std::unique_ptr<Gate> make_gate(int device, std::chrono::nanoseconds bound) {
  return std::make_unique<CudaGate>(device, bound);
}

}  // namespace xb::cuda
