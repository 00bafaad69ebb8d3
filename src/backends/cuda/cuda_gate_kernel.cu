#include "backends/cuda/cuda_gate_kernel.hpp"
#include "backends/cuda/cuda_gate_word.hpp"

namespace xb::cuda {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One thread. Each poll is a read over PCIe (the word is host memory): a short sleep between polls
// keeps that traffic small beside the copies being measured, at the cost of up to ~0.1 us of
// release latency, which is before the window's start event and so outside its time.
__global__ void gate_wait_kernel(const volatile std::uint32_t* published, std::uint32_t generation,
                                 unsigned long long bound_ns, std::uint32_t* gave_up) {
  const unsigned long long start = global_ns();
  while (!gate_released(*published, generation)) {
    if (global_ns() - start > bound_ns) {
      *reinterpret_cast<volatile std::uint32_t*>(gave_up) = generation;
      __threadfence_system();
      return;
    }
    __nanosleep(100);
  }
}

}  // namespace

cudaError_t preload_gate_wait() {
  cudaFuncAttributes attributes{};
  return cudaFuncGetAttributes(&attributes, gate_wait_kernel);  // loads the function (lazy loading)
}

cudaError_t launch_gate_wait(const volatile std::uint32_t* published, std::uint32_t generation,
                             unsigned long long bound_ns, std::uint32_t* gave_up, cudaStream_t stream) {
  // Checked with cudaGetLastError: clear what an earlier call left there first (as the sm copy does).
  (void)cudaGetLastError();
  gate_wait_kernel<<<1, 1, 0, stream>>>(published, generation, bound_ns, gave_up);
  return cudaGetLastError();
}

}  // namespace xb::cuda
