#include "backends/cuda/cuda_driver_version.hpp"

#include <fmt/format.h>

namespace xb::cuda {
namespace {
// The first driver branch of each CUDA major version (NVIDIA's release notes: CUDA 12.0 GA with
// 525.60.13, CUDA 13.0 GA with 580.65.06).
std::string oldest_branch(int major) {
  switch (major) {
    case 12: return " (R525 or later)";
    case 13: return " (R580 or later)";
    default: return "";
  }
}
}  // namespace

std::string cuda_version_text(int version) { return fmt::format("{}.{}", version / 1000, version % 1000 / 10); }

Support driver_runs_runtime(int driver_version, int runtime_version) {
  const int major = runtime_version / 1000;
  if (driver_version >= major * 1000) return Support::yes();
  return Support::no(fmt::format(
      "the NVIDIA driver supports CUDA {}; this module was built with CUDA {}, which needs a driver for CUDA {}.0 or "
      "newer{}",
      cuda_version_text(driver_version), cuda_version_text(runtime_version), major, oldest_branch(major)));
}

}  // namespace xb::cuda
