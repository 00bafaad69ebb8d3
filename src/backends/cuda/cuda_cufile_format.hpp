#pragma once
// cuFile's status codes and modes as text, without cuFile or CUDA: unit-tested on any machine
// (tests/cuda). The module (cuda_cufile.cpp) turns every cuFile failure into a message through
// these, so a GPUD run that fails says which call and which cuFile status.
#include <string>
#include <string_view>

namespace xb::cuda {

// The library the module loads at run time, in the order tried (GPUDirect Storage installs the
// versioned name; a toolkit's development files add the plain one).
inline constexpr const char* kCufileLibraries[] = {"libcufile.so.0", "libcufile.so"};

// "CU_FILE_DRIVER_NOT_INITIALIZED (5001)"; "cuFile status 5099" for a code this build does not name.
// The codes are cuFile's CUfileOpError: 0 for success, 5000 + n for its own errors.
std::string cufile_status_text(int code);

// What a negative return of cuFileRead / cuFileWrite means: -1 is a file system error with errno
// set (its strerror text), -(5000 + n) is a cuFile status (its name).
std::string cufile_io_error_text(long long returned, int errno_value);

// How the data of a GPUD run moves, for results and messages. cuFile moves data by DMA straight
// into GPU memory only through the nvidia-fs kernel module; without it (or when
// CUFILE_FORCE_COMPAT_MODE=true) it runs in compat mode: POSIX IO through its own host buffers.
struct CufileMode {
  bool compat = false;
  std::string text;
};
// `nvidia_fs_loaded`: /proc/driver/nvidia-fs exists; `force_compat_env`: CUFILE_FORCE_COMPAT_MODE's
// value, or null when it is unset.
CufileMode cufile_mode(bool nvidia_fs_loaded, const char* force_compat_env);

}  // namespace xb::cuda
