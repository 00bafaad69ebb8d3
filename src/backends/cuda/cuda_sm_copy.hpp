#pragma once
// The `sm` engine's copy kernel: threads of the device's multiprocessors load and store 16 bytes at
// a time, reading mapped pinned host memory over PCIe (H2D), writing it (D2H), or device memory
// (D2D). Compiled by nvcc (cuda_sm_copy.cu); the launch geometry comes from cuda_copy_plan.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace xb::cuda {

// Queues the copy on `stream` with the geometry of sm_launch_for (cuda_copy_plan.hpp; passed as
// plain numbers because nvcc compiles this file as C++17); returns the launch's error.
cudaError_t launch_sm_copy(void* dst, const void* src, unsigned blocks, unsigned threads, std::size_t vector_bytes,
                           std::size_t tail_bytes, cudaStream_t stream);

}  // namespace xb::cuda
