#pragma once
// Memory from the CUDA runtime: device memory (cudaMalloc), pinned host memory (cudaHostAlloc,
// portable and mapped, so any device's copies and the sm engine's kernel reach it), pageable host
// memory, and the registration of host memory that already exists (cudaHostRegister: what makes
// the shared-memory, O_DIRECT and huge-page kinds pinned). Each releases what it took.
#include <cstddef>
#include <memory>

#include "backends/device.hpp"

namespace xb::cuda {

std::unique_ptr<Allocation> allocate_device(int device, std::size_t bytes);
std::unique_ptr<Allocation> allocate_host(int device, std::size_t bytes, bool pinned);
std::unique_ptr<Registration> register_host(int device, void* data, std::size_t bytes);

}  // namespace xb::cuda
