#pragma once
// The CUDA gate's word (cuda_gate.hpp): the host publishes a generation in pinned, mapped memory,
// and a stream held for generation g goes on once the published value has reached g. Generations
// only grow (modulo 2^32), so a wait queued for an older window is released by every later open and
// never caught by a later close. Shared by the kernel (nvcc) and the host code and its tests.
#include <cstdint>

#if defined(__CUDACC__)
#define XB_CUDA_HOST_DEVICE __host__ __device__
#else
#define XB_CUDA_HOST_DEVICE
#endif

namespace xb::cuda {

// Whether a wait for `generation` may end, the host having published `published`: serial-number
// arithmetic (RFC 1982), so the comparison survives the word wrapping around.
XB_CUDA_HOST_DEVICE inline bool gate_released(std::uint32_t published, std::uint32_t generation) {
  return static_cast<std::int32_t>(published - generation) >= 0;
}

}  // namespace xb::cuda
