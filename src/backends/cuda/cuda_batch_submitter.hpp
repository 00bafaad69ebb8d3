#pragma once
// One stream's batch submissions: cudaMemcpyBatchAsync where the runtime and driver take it, else a
// CUDA graph of the copies captured once per distinct list of copies and replayed, else (memory a
// graph cannot capture, such as pageable host memory) the copies one by one. The first path that
// works is kept for the stream. XFERBENCH_CUDA_BATCH=api|graph|loop forces one (to compare them).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>

#include "backends/device.hpp"

namespace xb::cuda {

class BatchSubmitter {
 public:
  explicit BatchSubmitter(cudaStream_t stream);
  ~BatchSubmitter();
  BatchSubmitter(const BatchSubmitter&) = delete;
  BatchSubmitter& operator=(const BatchSubmitter&) = delete;

  void submit(std::span<const CopyOp> ops);
  // "api", "graph", "loop", or "" before the first batch.
  std::string_view path() const { return path_; }

 private:
  bool try_api(std::span<const CopyOp> ops, std::string& why);
  bool try_graph(std::span<const CopyOp> ops, std::string& why);
  void loop(std::span<const CopyOp> ops);

  cudaStream_t stream_;
  std::string path_;
  std::string forced_;
  std::unordered_map<std::uint64_t, cudaGraphExec_t> graphs_;
};

}  // namespace xb::cuda
