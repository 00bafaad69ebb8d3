#include "backends/cuda/cuda_memory.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <cstring>

#include "backends/cuda/cuda_error.hpp"
#include "core/error.hpp"
#include "core/size.hpp"

namespace xb::cuda {
namespace {

class DeviceAllocation final : public Allocation {
 public:
  DeviceAllocation(int device, std::size_t bytes) : size_(bytes) {
    check(cudaSetDevice(device), "cudaSetDevice", fmt::format("device {}", device));
    // cudaMalloc(0) returns no pointer; one byte keeps data() valid for empty buffers.
    check(cudaMalloc(&data_, bytes == 0 ? 1 : bytes), "cudaMalloc",
          fmt::format("{} on cuda device {}", format_bytes_human(bytes), device));
  }
  ~DeviceAllocation() override { (void)cudaFree(data_); }
  void* data() const override { return data_; }
  std::size_t size() const override { return size_; }
  MemoryPlace place() const override { return MemoryPlace::device; }

 private:
  void* data_ = nullptr;
  std::size_t size_;
};

class PinnedAllocation final : public Allocation {
 public:
  PinnedAllocation(int device, std::size_t bytes) : size_(bytes) {
    check(cudaSetDevice(device), "cudaSetDevice", fmt::format("device {}", device));
    check(cudaHostAlloc(&data_, bytes == 0 ? 1 : bytes, cudaHostAllocPortable | cudaHostAllocMapped), "cudaHostAlloc",
          fmt::format("{} of pinned host memory for cuda device {}", format_bytes_human(bytes), device));
  }
  ~PinnedAllocation() override { (void)cudaFreeHost(data_); }
  void* data() const override { return data_; }
  std::size_t size() const override { return size_; }
  MemoryPlace place() const override { return MemoryPlace::host_pinned; }

 private:
  void* data_ = nullptr;
  std::size_t size_;
};

// Plain pages, touched once so a copy never pays for first-touch faults (as the cpu backend does).
class PageableAllocation final : public Allocation {
 public:
  explicit PageableAllocation(std::size_t bytes) : size_(bytes), mapped_(bytes == 0 ? 4096 : (bytes + 4095) / 4096 * 4096) {
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw_errno(fmt::format("mmap of {} of pageable host memory", format_bytes_human(mapped_)));
    data_ = p;
    std::memset(data_, 0, mapped_);
  }
  ~PageableAllocation() override { munmap(data_, mapped_); }
  void* data() const override { return data_; }
  std::size_t size() const override { return size_; }
  MemoryPlace place() const override { return MemoryPlace::host_pageable; }

 private:
  void* data_ = nullptr;
  std::size_t size_;
  std::size_t mapped_;
};

class HostRegistration final : public Registration {
 public:
  HostRegistration(int device, void* data, std::size_t bytes) : data_(data) {
    check(cudaSetDevice(device), "cudaSetDevice", fmt::format("device {}", device));
    check(cudaHostRegister(data, bytes, cudaHostRegisterPortable | cudaHostRegisterMapped), "cudaHostRegister",
          fmt::format("{} at {} for cuda device {}", format_bytes_human(bytes), data, device));
  }
  ~HostRegistration() override { (void)cudaHostUnregister(data_); }

 private:
  void* data_;
};

}  // namespace

std::unique_ptr<Allocation> allocate_device(int device, std::size_t bytes) {
  return std::make_unique<DeviceAllocation>(device, bytes);
}

std::unique_ptr<Allocation> allocate_host(int device, std::size_t bytes, bool pinned) {
  if (pinned) return std::make_unique<PinnedAllocation>(device, bytes);
  return std::make_unique<PageableAllocation>(bytes);
}

std::unique_ptr<Registration> register_host(int device, void* data, std::size_t bytes) {
  return std::make_unique<HostRegistration>(device, data, bytes);
}

}  // namespace xb::cuda
