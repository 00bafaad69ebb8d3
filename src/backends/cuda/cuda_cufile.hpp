#pragma once
// GPUDirect Storage through cuFile, loaded at run time (dlopen of libcufile.so.0): files read into and
// written from GPU memory without a host bounce buffer, or through cuFile's compat mode where the
// nvidia-fs kernel module is absent, and the result says which (cufile_mode). The module never
// links libcufile, so it loads on machines without GPUDirect Storage; open_cufile says what is
// missing there.
#include <memory>

#include "backends/device.hpp"

namespace xb::cuda {

// Loads libcufile, opens its driver (cuFileDriverOpen) and returns the device's direct storage.
// Throws Unavailable naming the library or the failing call and its cuFile status.
std::unique_ptr<DirectStorage> open_cufile(int device);

}  // namespace xb::cuda
