#include "backends/cuda/cuda_batch_submitter.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

#include "backends/cuda/cuda_copy_plan.hpp"
#include "backends/cuda/cuda_error.hpp"

namespace xb::cuda {
namespace {
// Distinct batches a stream keeps graphs for; a job replays a handful, so more means it never repeats.
constexpr std::size_t kMaxGraphs = 64;

// cudaMemcpyBatchAsync as the toolkit the module is built with declares it: absent before CUDA
// 12.8; 12.8 and 12.9 take non-const arrays and a failIdx before the stream; 13.0 const arrays and
// no failIdx. Without it the first batch takes the graph path, saying why (config.submission).
#if CUDART_VERSION >= 12080
cudaError_t memcpy_batch(BatchArrays& a, cudaMemcpyAttributes* attr, std::size_t* attr_index, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
  return cudaMemcpyBatchAsync(a.dsts.data(), a.srcs.data(), a.sizes.data(), a.count(), attr, attr_index, 1, stream);
#else
  std::size_t fail_index = 0;  // which copy failed; the error text is what a result records
  return cudaMemcpyBatchAsync(a.dsts.data(), const_cast<void**>(a.srcs.data()), a.sizes.data(), a.count(), attr,
                              attr_index, 1, &fail_index, stream);
#endif
}
#endif
}  // namespace

BatchSubmitter::BatchSubmitter(cudaStream_t stream, int device) : stream_(stream), device_(device) {
  int usable = 0;
  check(cudaDeviceGetAttribute(&usable, cudaDevAttrCanUseHostPointerForRegisteredMem, device),
        "cudaDeviceGetAttribute(cudaDevAttrCanUseHostPointerForRegisteredMem)", fmt::format("cuda device {}", device));
  host_pointers_usable_ = usable != 0;
  if (const char* f = std::getenv("XFERBENCH_CUDA_BATCH"); f != nullptr && *f != '\0') {
    forced_ = f;
    if (forced_ != "api" && forced_ != "graph" && forced_ != "loop") {
      throw std::invalid_argument(fmt::format("XFERBENCH_CUDA_BATCH={}: expected api, graph or loop", forced_));
    }
  }
}

BatchSubmitter::~BatchSubmitter() {
  for (auto& [key, exec] : graphs_) (void)cudaGraphExecDestroy(exec);
}

std::string BatchSubmitter::report() const {
  if (path_.empty() || why_not_better_.empty()) return path_;
  return fmt::format("{}: {}", path_, why_not_better_);
}

bool BatchSubmitter::has_unusable_host_pointer(std::span<const CopyOp> ops) const {
  if (host_pointers_usable_) return false;
  for (const CopyOp& op : ops) {
    if (op.bytes == 0) continue;  // dropped from the batch (make_batch_arrays): its addresses do not matter
    for (const void* p : {static_cast<const void*>(op.dst), op.src}) {
      cudaPointerAttributes attr{};
      check(cudaPointerGetAttributes(&attr, p), "cudaPointerGetAttributes", fmt::format("cuda device {}", device_));
      const PointerView view{attr.type == cudaMemoryTypeHost, attr.devicePointer != p};
      if (!batch_api_takes(view, host_pointers_usable_)) return true;
    }
  }
  return false;
}

void BatchSubmitter::submit(std::span<const CopyOp> ops) {
  if (ops.empty()) return;
  std::string why_api, why_graph;
  const std::string want = !forced_.empty() ? forced_ : path_;
  // Before the batch API only (a graph's captured copies take such addresses as any copy does);
  // batch by batch, as the memory may differ; only on devices that cannot use them.
  if ((want.empty() || want == "api") && has_unusable_host_pointer(ops)) {
    const std::string why = fmt::format(
        "cuda device {} cannot use host addresses of registered memory "
        "(cudaDevAttrCanUseHostPointerForRegisteredMem is 0), so batches of them go out one by one",
        device_);
    if (!forced_.empty()) throw std::runtime_error(fmt::format("XFERBENCH_CUDA_BATCH={}: {}", forced_, why));
    if (path_.empty()) {
      path_ = "loop";
      why_not_better_ = why;
    }
    return loop(ops);
  }
  if (want == "api") {
    if (!try_api(ops, why_api)) throw std::runtime_error(why_api);
    return;
  }
  if (want == "graph") {
    if (!try_graph(ops, why_graph)) throw std::runtime_error(why_graph);
    return;
  }
  if (want == "loop") return loop(ops);
  // First batch on this stream: the best path that works.
  if (try_api(ops, why_api)) {
    path_ = "api";
  } else if (try_graph(ops, why_graph)) {
    path_ = "graph";
    why_not_better_ = why_api;
  } else {
    path_ = "loop";
    why_not_better_ = fmt::format("{}; {}", why_api, why_graph);
    loop(ops);
  }
}

bool BatchSubmitter::try_api(std::span<const CopyOp> ops, std::string& why) {
#if CUDART_VERSION >= 12080
  BatchArrays a = make_batch_arrays(ops);
  if (a.count() == 0) return true;
  cudaMemcpyAttributes attr{};
  attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;  // sources are read in stream order
  std::size_t attr_index = 0;                            // one attribute for every copy
  const cudaError_t e = memcpy_batch(a, &attr, &attr_index, stream_);
  if (e == cudaSuccess) return true;
  (void)cudaGetLastError();
  why = fmt::format("cudaMemcpyBatchAsync of {} copies failed: {}", a.count(), error_text(e));
  return false;
#else
  (void)ops;
  why = batch_api_absent(CUDART_VERSION);
  return false;
#endif
}

bool BatchSubmitter::try_graph(std::span<const CopyOp> ops, std::string& why) {
  const std::uint64_t key = batch_key(ops);
  auto it = graphs_.find(key);
  if (it == graphs_.end()) {
    if (graphs_.size() >= kMaxGraphs) {
      for (auto& [k, exec] : graphs_) (void)cudaGraphExecDestroy(exec);
      graphs_.clear();
    }
    cudaError_t e = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();  // the failure stays the thread's last error otherwise
      why = fmt::format("cudaStreamBeginCapture failed: {}", error_text(e));
      return false;
    }
    cudaError_t first_error = cudaSuccess;
    for (const CopyOp& op : ops) {
      if (op.bytes == 0) continue;
      e = cudaMemcpyAsync(op.dst, op.src, op.bytes, cudaMemcpyDefault, stream_);
      if (e != cudaSuccess && first_error == cudaSuccess) first_error = e;
    }
    cudaGraph_t graph = nullptr;
    e = cudaStreamEndCapture(stream_, &graph);
    if (first_error != cudaSuccess || e != cudaSuccess) {
      if (graph != nullptr) (void)cudaGraphDestroy(graph);
      (void)cudaGetLastError();
      why = fmt::format("capturing {} copies into a CUDA graph failed: {}", ops.size(),
                        error_text(first_error != cudaSuccess ? first_error : e));
      return false;
    }
    cudaGraphExec_t exec = nullptr;
    e = cudaGraphInstantiate(&exec, graph, 0);
    (void)cudaGraphDestroy(graph);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      why = fmt::format("cudaGraphInstantiate of {} copies failed: {}", ops.size(), error_text(e));
      return false;
    }
    it = graphs_.emplace(key, exec).first;
  }
  const cudaError_t e = cudaGraphLaunch(it->second, stream_);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    why = fmt::format("cudaGraphLaunch failed: {}", error_text(e));
    return false;
  }
  return true;
}

void BatchSubmitter::loop(std::span<const CopyOp> ops) {
  for (const CopyOp& op : ops) {
    if (op.bytes == 0) continue;
    check(cudaMemcpyAsync(op.dst, op.src, op.bytes, cudaMemcpyDefault, stream_), "cudaMemcpyAsync",
          fmt::format("{} bytes, in a batch submitted one by one", op.bytes));
  }
}

}  // namespace xb::cuda
