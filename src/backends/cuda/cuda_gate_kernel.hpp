#pragma once
// The CUDA gate's wait (cuda_gate.hpp), nvbandwidth's spin-kernel idea in our own code: one thread
// on the held stream polls the host-published word until it reaches the window's generation, so
// every later copy of the stream waits behind it. It gives up after `bound_ns` (the device's global
// timer), writing its generation to `gave_up`, so a host that never opens cannot hold the device.
// Compiled by nvcc (cuda_gate_kernel.cu).
#include <cuda_runtime_api.h>

#include <cstdint>

namespace xb::cuda {

// Loads the wait kernel into the current device's context (see preload_sm_copy: a first launch
// behind a running wait could otherwise wait for it).
cudaError_t preload_gate_wait();

// `published` and `gave_up` are device addresses of pinned, mapped host memory.
cudaError_t launch_gate_wait(const volatile std::uint32_t* published, std::uint32_t generation,
                             unsigned long long bound_ns, std::uint32_t* gave_up, cudaStream_t stream);

}  // namespace xb::cuda
