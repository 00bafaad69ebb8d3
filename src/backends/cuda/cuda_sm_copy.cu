#include <cstdint>

#include "backends/cuda/cuda_sm_copy.hpp"

namespace xb::cuda {
namespace {

// Grid-stride copy of `words` 16-byte words, four loads in flight per thread before the stores, so
// each thread keeps several PCIe or HBM requests outstanding; then `tail` bytes one at a time.
__global__ void sm_copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src, std::size_t words,
                               unsigned char* __restrict__ dst_tail, const unsigned char* __restrict__ src_tail,
                               std::size_t tail) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::size_t i = first;
  for (; i + 3 * stride < words; i += 4 * stride) {
    const uint4 a = src[i];
    const uint4 b = src[i + stride];
    const uint4 c = src[i + 2 * stride];
    const uint4 d = src[i + 3 * stride];
    dst[i] = a;
    dst[i + stride] = b;
    dst[i + 2 * stride] = c;
    dst[i + 3 * stride] = d;
  }
  for (; i < words; i += stride) dst[i] = src[i];
  for (std::size_t j = first; j < tail; j += stride) dst_tail[j] = src_tail[j];
}

}  // namespace

cudaError_t preload_sm_copy() {
  cudaFuncAttributes attributes{};
  return cudaFuncGetAttributes(&attributes, sm_copy_kernel);  // loads the function (lazy loading)
}

cudaError_t launch_sm_copy(void* dst, const void* src, unsigned blocks, unsigned threads, std::size_t vector_bytes,
                           std::size_t tail_bytes, cudaStream_t stream) {
  if (vector_bytes + tail_bytes == 0) return cudaSuccess;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  // The launch is checked with cudaGetLastError: clear what an earlier call left there first, so
  // the error reported is this launch's own.
  (void)cudaGetLastError();
  sm_copy_kernel<<<blocks, threads, 0, stream>>>(reinterpret_cast<uint4*>(d), reinterpret_cast<const uint4*>(s),
                                                  vector_bytes / 16, d + vector_bytes, s + vector_bytes, tail_bytes);
  return cudaGetLastError();
}

}  // namespace xb::cuda
