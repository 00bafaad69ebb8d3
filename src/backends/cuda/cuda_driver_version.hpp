#pragma once
// Whether the NVIDIA driver here can run this module's CUDA runtime, decided from the driver's own
// version (cuDriverGetVersion through libcuda.so.1) before any runtime call, so a driver too old
// is named with both versions instead of the runtime's "insufficient driver" (or worse). No CUDA
// here: unit-tested anywhere.
#include <string>

#include "core/support.hpp"

namespace xb::cuda {

// cuDriverGetVersion's and CUDART_VERSION's form, 1000 x major + 10 x minor: 12040 -> "12.4".
std::string cuda_version_text(int version);

// A runtime of CUDA major M runs on a driver for CUDA M.0 or newer (CUDA's minor version
// compatibility within a major; a newer major's driver runs older runtimes). Otherwise why, naming
// the driver's CUDA version, the module's and the oldest driver branch it needs.
Support driver_runs_runtime(int driver_version, int runtime_version);

}  // namespace xb::cuda
