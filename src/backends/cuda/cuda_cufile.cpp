#include "backends/cuda/cuda_cufile.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/types.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "backends/cuda/cuda_cufile_format.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "core/error.hpp"

namespace xb::cuda {
namespace {

// cuFile's C ABI as far as this module uses it (cufile.h of GPUDirect Storage; the header is not on
// the build machines, so the declarations are written here from NVIDIA's API reference):
// CUfileError_t is {CUfileOpError err; CUresult cu_err;}, two 32-bit enums returned by value;
// CUfileDescr_t is {CUfileFileHandleType type; union {int fd; void* handle;} handle;
// const CUfileFSOps_t* fs_ops;}; a CUfileHandle_t is an opaque pointer.
struct CufileError {
  int err;
  int cu_err;
};
struct CufileDescr {
  int type;
  union {
    int fd;
    void* handle;
  } handle;
  const void* fs_ops;
};
using CufileHandle = void*;
constexpr int kHandleTypeOpaqueFd = 1;  // CU_FILE_HANDLE_TYPE_OPAQUE_FD

using DriverOpenFn = CufileError (*)();
using DriverCloseFn = CufileError (*)();
using HandleRegisterFn = CufileError (*)(CufileHandle*, CufileDescr*);
using HandleDeregisterFn = void (*)(CufileHandle);
using BufRegisterFn = CufileError (*)(const void*, std::size_t, int);
using BufDeregisterFn = CufileError (*)(const void*);
using ReadFn = ssize_t (*)(CufileHandle, void*, std::size_t, off_t, off_t);
using WriteFn = ssize_t (*)(CufileHandle, const void*, std::size_t, off_t, off_t);

std::string error_text(const CufileError& e) {
  std::string text = cufile_status_text(e.err);
  if (e.cu_err != 0) text += fmt::format(", CUDA driver error {}", e.cu_err);
  return text;
}

// The loaded library and its driver: cuFileDriverClose'd when the last user goes (files and buffer
// registrations hold it through shared_ptr). The library itself stays mapped (RTLD_NODELETE, never
// dlclose'd): libcufile registers exit-time cleanup that crashed the process when it ran after an
// unload (the GDS team's advice in RAPIDS' cuCIM #158/#177 and cuDF #9872).
class CufileLibrary {
 public:
  CufileLibrary() {
    std::string tried;
    for (const char* name : kCufileLibraries) {
      handle_ = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
      if (handle_ != nullptr) break;
      const char* why = dlerror();
      tried += fmt::format("{}{}", tried.empty() ? "" : "; ", why != nullptr ? why : name);
    }
    if (handle_ == nullptr) {
      throw Unavailable(fmt::format(
          "GPUD needs NVIDIA GPUDirect Storage's cuFile library, which cannot be loaded ({}); install GDS "
          "(nvidia-gds) or use CPU_GPU",
          tried));
    }
    driver_open = symbol<DriverOpenFn>("cuFileDriverOpen");
    // Newer libraries export the versioned close (cufile.h maps the plain name onto it).
    driver_close = symbol<DriverCloseFn>("cuFileDriverClose_v2", "cuFileDriverClose");
    handle_register = symbol<HandleRegisterFn>("cuFileHandleRegister");
    handle_deregister = symbol<HandleDeregisterFn>("cuFileHandleDeregister");
    buf_register = symbol<BufRegisterFn>("cuFileBufRegister");
    buf_deregister = symbol<BufDeregisterFn>("cuFileBufDeregister");
    read = symbol<ReadFn>("cuFileRead");
    write = symbol<WriteFn>("cuFileWrite");
    if (const CufileError e = driver_open(); e.err != 0) {
      throw Unavailable(fmt::format("cuFileDriverOpen failed: {}", error_text(e)));
    }
  }
  ~CufileLibrary() { (void)driver_close(); }
  CufileLibrary(const CufileLibrary&) = delete;
  CufileLibrary& operator=(const CufileLibrary&) = delete;

  DriverOpenFn driver_open = nullptr;
  DriverCloseFn driver_close = nullptr;
  HandleRegisterFn handle_register = nullptr;
  HandleDeregisterFn handle_deregister = nullptr;
  BufRegisterFn buf_register = nullptr;
  BufDeregisterFn buf_deregister = nullptr;
  ReadFn read = nullptr;
  WriteFn write = nullptr;

 private:
  template <typename Fn>
  Fn symbol(const char* name, const char* fallback = nullptr) {
    void* p = dlsym(handle_, name);
    if (p == nullptr && fallback != nullptr) p = dlsym(handle_, fallback);
    if (p == nullptr) {
      throw Unavailable(fmt::format("the cuFile library has no {}: too old for GPUD (GDS 1.0 or newer needed)", name));
    }
    return reinterpret_cast<Fn>(p);
  }

  void* handle_ = nullptr;
};

class CufileBuffer final : public Registration {
 public:
  CufileBuffer(std::shared_ptr<CufileLibrary> lib, void* data, std::size_t bytes) : lib_(std::move(lib)), data_(data) {
    if (const CufileError e = lib_->buf_register(data, bytes, 0); e.err != 0) {
      throw std::runtime_error(fmt::format("cuFileBufRegister({} bytes of GPU memory) failed: {}", bytes, error_text(e)));
    }
  }
  ~CufileBuffer() override { (void)lib_->buf_deregister(data_); }
  CufileBuffer(const CufileBuffer&) = delete;
  CufileBuffer& operator=(const CufileBuffer&) = delete;

 private:
  std::shared_ptr<CufileLibrary> lib_;
  void* data_;
};

class CufileFile final : public DirectFile {
 public:
  CufileFile(std::shared_ptr<CufileLibrary> lib, int device, int fd, std::string_view path)
      : lib_(std::move(lib)), device_(device), path_(path) {
    CufileDescr descr{};
    descr.type = kHandleTypeOpaqueFd;
    descr.handle.fd = fd;
    if (const CufileError e = lib_->handle_register(&handle_, &descr); e.err != 0) {
      throw std::runtime_error(fmt::format("cuFileHandleRegister({}) failed: {}", path_, error_text(e)));
    }
  }
  ~CufileFile() override { lib_->handle_deregister(handle_); }
  CufileFile(const CufileFile&) = delete;
  CufileFile& operator=(const CufileFile&) = delete;

  std::size_t read(void* base, std::size_t base_offset, std::size_t bytes, std::uint64_t file_offset) override {
    use_device();
    return result("cuFileRead", lib_->read(handle_, base, bytes, static_cast<off_t>(file_offset),
                                           static_cast<off_t>(base_offset)),
                  bytes, file_offset);
  }
  std::size_t write(const void* base, std::size_t base_offset, std::size_t bytes, std::uint64_t file_offset) override {
    use_device();
    return result("cuFileWrite", lib_->write(handle_, base, bytes, static_cast<off_t>(file_offset),
                                             static_cast<off_t>(base_offset)),
                  bytes, file_offset);
  }

 private:
  // cuFile works in the calling thread's CUDA context; the io job's threads start with none.
  void use_device() const { check(cudaSetDevice(device_), "cudaSetDevice", fmt::format("cuFile IO on {}", path_)); }

  std::size_t result(std::string_view call, ssize_t n, std::size_t bytes, std::uint64_t offset) const {
    const int error = errno;  // before anything below can change it
    if (n >= 0) return static_cast<std::size_t>(n);
    const std::string what = fmt::format("{}({}, offset {}, {} bytes)", call, path_, offset, bytes);
    if (n == -1) throw std::system_error(error, std::generic_category(), what);
    throw std::runtime_error(fmt::format("{} failed: {}", what, cufile_io_error_text(n, 0)));
  }

  std::shared_ptr<CufileLibrary> lib_;
  int device_;
  std::string path_;
  CufileHandle handle_ = nullptr;
};

bool nvidia_fs_loaded() {
  std::error_code ignored;  // unreadable counts as absent: the mode is then reported as compat
  return std::filesystem::exists("/proc/driver/nvidia-fs", ignored);
}

class CufileStorage final : public DirectStorage {
 public:
  explicit CufileStorage(int device)
      : device_(device),
        lib_(std::make_shared<CufileLibrary>()),
        mode_(cufile_mode(nvidia_fs_loaded(), std::getenv("CUFILE_FORCE_COMPAT_MODE"))) {}

  std::string_view name() const override { return "cufile"; }
  std::string mode() const override { return mode_.text; }
  std::unique_ptr<DirectFile> open_file(int fd, std::string_view path) override {
    return std::make_unique<CufileFile>(lib_, device_, fd, path);
  }
  std::unique_ptr<Registration> register_buffer(void* data, std::size_t bytes) override {
    check(cudaSetDevice(device_), "cudaSetDevice", "cuFileBufRegister");
    return std::make_unique<CufileBuffer>(lib_, data, bytes);
  }

 private:
  int device_;
  std::shared_ptr<CufileLibrary> lib_;
  CufileMode mode_;
};

}  // namespace

std::unique_ptr<DirectStorage> open_cufile(int device) { return std::make_unique<CufileStorage>(device); }

}  // namespace xb::cuda
