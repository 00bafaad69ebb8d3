#pragma once
// One stream's batch submissions: cudaMemcpyBatchAsync where the runtime and driver take it, else a
// CUDA graph of the copies captured once per distinct list of copies and replayed, else (memory a
// graph cannot capture, such as pageable host memory) the copies one by one. The first path that
// works is kept for the stream. XFERBENCH_CUDA_BATCH=api|graph|loop forces one (to compare them).
// The batch API takes host addresses of registered memory only where the device can use them
// (cudaDevAttrCanUseHostPointerForRegisteredMem); elsewhere such a batch goes out one by one, and
// report() says so.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>

#include "backends/device.hpp"

namespace xb::cuda {

class BatchSubmitter {
 public:
  BatchSubmitter(cudaStream_t stream, int device);
  ~BatchSubmitter();
  BatchSubmitter(const BatchSubmitter&) = delete;
  BatchSubmitter& operator=(const BatchSubmitter&) = delete;

  void submit(std::span<const CopyOp> ops);
  // "api", "graph", "loop", or "" before the first batch.
  std::string_view path() const { return path_; }
  // For results: the path, and why a better one was not taken ("loop: cudaMemcpyBatchAsync …").
  std::string report() const;

 private:
  bool try_api(std::span<const CopyOp> ops, std::string& why);
  bool try_graph(std::span<const CopyOp> ops, std::string& why);
  void loop(std::span<const CopyOp> ops);
  // A host address of registered memory the device cannot use as it is (its device pointer differs).
  bool has_unusable_host_pointer(std::span<const CopyOp> ops) const;

  cudaStream_t stream_;
  int device_;
  bool host_pointers_usable_ = true;  // cudaDevAttrCanUseHostPointerForRegisteredMem
  std::string path_;
  std::string why_not_better_;  // why the first batch did not take the api (or graph) path
  std::string forced_;
  std::unordered_map<std::uint64_t, cudaGraphExec_t> graphs_;
};

}  // namespace xb::cuda
