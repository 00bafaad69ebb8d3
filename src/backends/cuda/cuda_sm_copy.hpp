#pragma once
// The `sm` engine's copy kernel: threads of the device's multiprocessors load and store 16 bytes at
// a time, reading mapped pinned host memory over PCIe (H2D), writing it (D2H), or device memory
// (D2D). Compiled by nvcc (cuda_sm_copy.cu); the launch geometry comes from cuda_copy_plan.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace xb::cuda {

// Loads the kernel into the current device's context now. Under lazy module loading (CUDA 12's
// default) a kernel's first launch loads it, and loading may wait for the device's running work:
// behind a gate's wait kernel (cuda_gate.hpp) that wait would be for the host, which is blocked in
// the launch. An sm stream loads its kernel when it is made; the gate loads its own before it
// holds a device's stream for the first time.
cudaError_t preload_sm_copy();

// Queues the copy on `stream` with the geometry of sm_launch_for (cuda_copy_plan.hpp; passed as
// plain numbers because nvcc compiles this file as C++17); returns the launch's error.
cudaError_t launch_sm_copy(void* dst, const void* src, unsigned blocks, unsigned threads, std::size_t vector_bytes,
                           std::size_t tail_bytes, cudaStream_t stream);

}  // namespace xb::cuda
