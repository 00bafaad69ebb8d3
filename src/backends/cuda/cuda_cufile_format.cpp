#include "backends/cuda/cuda_cufile_format.hpp"

#include <fmt/format.h>

#include <cstring>
#include <strings.h>

namespace xb::cuda {
namespace {

// cuFile's CUfileOpError names (cufile.h, GPUDirect Storage 1.x); the library's ABI since its first
// release. Codes not listed here print as numbers.
constexpr struct {
  int code;
  const char* name;
} kStatusNames[] = {
    {5001, "CU_FILE_DRIVER_NOT_INITIALIZED"},   {5002, "CU_FILE_DRIVER_INVALID_PROPS"},
    {5003, "CU_FILE_DRIVER_UNSUPPORTED_LIMIT"}, {5004, "CU_FILE_DRIVER_VERSION_MISMATCH"},
    {5005, "CU_FILE_DRIVER_VERSION_READ_ERROR"}, {5006, "CU_FILE_DRIVER_CLOSING"},
    {5007, "CU_FILE_PLATFORM_NOT_SUPPORTED"},   {5008, "CU_FILE_IO_NOT_SUPPORTED"},
    {5009, "CU_FILE_DEVICE_NOT_SUPPORTED"},     {5010, "CU_FILE_NVFS_DRIVER_ERROR"},
    {5011, "CU_FILE_CUDA_DRIVER_ERROR"},        {5012, "CU_FILE_CUDA_POINTER_INVALID"},
    {5013, "CU_FILE_CUDA_MEMORY_TYPE_INVALID"}, {5014, "CU_FILE_CUDA_POINTER_RANGE_ERROR"},
    {5015, "CU_FILE_CUDA_CONTEXT_MISMATCH"},    {5016, "CU_FILE_INVALID_MAPPING_SIZE"},
    {5017, "CU_FILE_INVALID_MAPPING_RANGE"},    {5018, "CU_FILE_INVALID_FILE_TYPE"},
    {5019, "CU_FILE_INVALID_FILE_OPEN_FLAG"},   {5020, "CU_FILE_DIO_NOT_SET"},
    {5022, "CU_FILE_INVALID_VALUE"},            {5023, "CU_FILE_MEMORY_ALREADY_REGISTERED"},
    {5024, "CU_FILE_MEMORY_NOT_REGISTERED"},    {5025, "CU_FILE_PERMISSION_DENIED"},
    {5026, "CU_FILE_DRIVER_ALREADY_OPEN"},      {5027, "CU_FILE_HANDLE_NOT_REGISTERED"},
    {5028, "CU_FILE_HANDLE_ALREADY_REGISTERED"}, {5029, "CU_FILE_DEVICE_NOT_FOUND"},
    {5030, "CU_FILE_INTERNAL_ERROR"},           {5031, "CU_FILE_GETNEWFD_FAILED"},
    {5033, "CU_FILE_NVFS_SETUP_ERROR"},         {5034, "CU_FILE_IO_DISABLED"},
    // The batch and internal errors of the current cufile.h (CUFILEOP_BASE_ERR + 35 .. + 50). 5021
    // and 5032 are unassigned there: they print as numbers.
    {5035, "CU_FILE_BATCH_SUBMIT_FAILED"},      {5036, "CU_FILE_GPU_MEMORY_PINNING_FAILED"},
    {5037, "CU_FILE_BATCH_FULL"},               {5038, "CU_FILE_ASYNC_NOT_SUPPORTED"},
    {5039, "CU_FILE_INTERNAL_BATCH_SETUP_ERROR"}, {5040, "CU_FILE_INTERNAL_BATCH_SUBMIT_ERROR"},
    {5041, "CU_FILE_INTERNAL_BATCH_GETSTATUS_ERROR"}, {5042, "CU_FILE_INTERNAL_BATCH_CANCEL_ERROR"},
    {5043, "CU_FILE_NOMEM_ERROR"},              {5044, "CU_FILE_IO_ERROR"},
    {5045, "CU_FILE_INTERNAL_BUF_REGISTER_ERROR"}, {5046, "CU_FILE_HASH_OPR_ERROR"},
    {5047, "CU_FILE_INVALID_CONTEXT_ERROR"},    {5048, "CU_FILE_NVFS_INTERNAL_DRIVER_ERROR"},
    {5049, "CU_FILE_BATCH_NOCOMPAT_ERROR"},     {5050, "CU_FILE_IO_MAX_ERROR"},
};

}  // namespace

std::string cufile_status_text(int code) {
  if (code == 0) return "CU_FILE_SUCCESS (0)";
  for (const auto& s : kStatusNames) {
    if (s.code == code) return fmt::format("{} ({})", s.name, code);
  }
  return fmt::format("cuFile status {}", code);
}

std::string cufile_io_error_text(long long returned, int errno_value) {
  if (returned == -1) return fmt::format("{} (errno {})", std::strerror(errno_value), errno_value);
  return cufile_status_text(static_cast<int>(-returned));
}

CufileMode cufile_mode(bool nvidia_fs_loaded, const char* force_compat_env) {
  // cuFile reads the variable as a boolean: "true" (any case) forces compat mode.
  if (force_compat_env != nullptr && strcasecmp(force_compat_env, "true") == 0) {
    return {true, "compat mode (CUFILE_FORCE_COMPAT_MODE=true): POSIX IO through cuFile's host bounce buffers"};
  }
  if (!nvidia_fs_loaded) {
    return {true,
            "compat mode (the nvidia-fs kernel module is not loaded): POSIX IO through cuFile's host bounce buffers"};
  }
  // nvidia-fs decides for the process, the file system for each file: cuFile still falls back to
  // compat mode per file where the file system has no GDS support (tmpfs, overlay, most NFS).
  return {false,
          "GPUDirect Storage (nvidia-fs loaded): DMA between the storage and GPU memory where the file system "
          "supports it, cuFile's compat mode per file where it does not"};
}

}  // namespace xb::cuda
