#include "backends/cuda/cuda_memory.hpp"

#include <fmt/format.h>

#include "backends/cuda/cuda_error.hpp"
#include "backends/pageable_allocation.hpp"
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
  return make_pageable_allocation(bytes);
}

std::unique_ptr<Registration> register_host(int device, void* data, std::size_t bytes) {
  return std::make_unique<HostRegistration>(device, data, bytes);
}

}  // namespace xb::cuda
