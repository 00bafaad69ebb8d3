#include "backends/cuda/cuda_error.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace xb::cuda {

std::string error_text(cudaError_t e) {
  return fmt::format("{}: {}", cudaGetErrorName(e), cudaGetErrorString(e));
}

void check(cudaError_t e, std::string_view call, std::string_view context) {
  if (e == cudaSuccess) return;
  // Clear the sticky-free "last error" so a later, unrelated check does not report this one again.
  (void)cudaGetLastError();
  throw std::runtime_error(context.empty() ? fmt::format("{} failed: {}", call, error_text(e))
                                           : fmt::format("{} ({}) failed: {}", call, context, error_text(e)));
}

}  // namespace xb::cuda
