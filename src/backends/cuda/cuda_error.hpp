#pragma once
// Every CUDA runtime call of the backend goes through check(): a failure becomes an exception whose
// message names the call, what it was doing, and the runtime's error name and text.
#include <cuda_runtime_api.h>

#include <string_view>

namespace xb::cuda {

// Throws std::runtime_error "CALL (CONTEXT) failed: cudaErrorX: text" unless `e` is cudaSuccess.
void check(cudaError_t e, std::string_view call, std::string_view context = {});

// "cudaErrorX: text", for messages built elsewhere.
std::string error_text(cudaError_t e);

}  // namespace xb::cuda
