#include "backends/acl/acl_memory.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "backends/acl/acl_error.hpp"
#include "backends/pageable_allocation.hpp"
#include "core/error.hpp"
#include "core/size.hpp"

namespace xb::acl {
namespace {

class DeviceAllocation final : public Allocation {
 public:
  DeviceAllocation(std::shared_ptr<AclDeviceContext> device, std::size_t bytes)
      : device_(std::move(device)), size_(bytes) {
    device_->make_current();
    // aclrtMalloc refuses 0 bytes; one byte keeps data() valid for empty buffers.
    check(device_->api(), device_->api().aclrtMalloc(&data_, bytes == 0 ? 1 : bytes, kMemMallocHugeFirst),
          "aclrtMalloc", fmt::format("{} on acl device {}, huge pages first", format_bytes_human(bytes), device_->index()));
    device_->session().note_device_memory(data_, bytes == 0 ? 1 : bytes, device_->index());
  }
  ~DeviceAllocation() override {
    device_->session().forget_device_memory(data_);
    device_->make_current_quietly();
    (void)device_->api().aclrtFree(data_);
  }
  void* data() const override { return data_; }
  std::size_t size() const override { return size_; }
  MemoryPlace place() const override { return MemoryPlace::device; }

 private:
  std::shared_ptr<AclDeviceContext> device_;
  void* data_ = nullptr;
  std::size_t size_;
};

// aclrtMallocHost promises 64-byte alignment only, and O_DIRECT (io's and kv's bounce buffers)
// wants the page: a page more is taken and data() starts at the first page boundary in it.
class PinnedAllocation final : public Allocation {
 public:
  static constexpr std::size_t kPage = 4096;

  PinnedAllocation(std::shared_ptr<AclDeviceContext> device, std::size_t bytes)
      : device_(std::move(device)), size_(bytes) {
    device_->make_current();
    check(device_->api(), device_->api().aclrtMallocHost(&base_, bytes + kPage), "aclrtMallocHost",
          fmt::format("{} of pinned host memory for acl device {}", format_bytes_human(bytes), device_->index()));
    const auto at = reinterpret_cast<std::uintptr_t>(base_);
    data_ = reinterpret_cast<void*>((at + kPage - 1) / kPage * kPage);
  }
  ~PinnedAllocation() override { (void)device_->api().aclrtFreeHost(base_); }
  void* data() const override { return data_; }
  std::size_t size() const override { return size_; }
  MemoryPlace place() const override { return MemoryPlace::host_pinned; }

 private:
  std::shared_ptr<AclDeviceContext> device_;
  void* base_ = nullptr;  // what the runtime gave (and takes back)
  void* data_ = nullptr;  // its first page boundary
  std::size_t size_;
};

class HostRegistration final : public Registration {
 public:
  HostRegistration(std::shared_ptr<AclDeviceContext> device, void* data, std::size_t bytes)
      : device_(std::move(device)), data_(data) {
    device_->make_current();
    void* on_device = nullptr;  // the device's alias, for kernels only: copies keep using `data`
    check(device_->api(), device_->api().aclrtHostRegister(data, bytes, kHostRegisterMapped, &on_device),
          "aclrtHostRegister", fmt::format("{} at {} for acl device {}", format_bytes_human(bytes), data, device_->index()));
  }
  ~HostRegistration() override { (void)device_->api().aclrtHostUnregister(data_); }

 private:
  std::shared_ptr<AclDeviceContext> device_;
  void* data_;
};

}  // namespace

std::unique_ptr<Allocation> allocate_device(std::shared_ptr<AclDeviceContext> device, std::size_t bytes) {
  return std::make_unique<DeviceAllocation>(std::move(device), bytes);
}

std::unique_ptr<Allocation> allocate_host(std::shared_ptr<AclDeviceContext> device, std::size_t bytes, bool pinned) {
  if (pinned) return std::make_unique<PinnedAllocation>(std::move(device), bytes);
  return make_pageable_allocation(bytes);
}

std::unique_ptr<Registration> register_host(std::shared_ptr<AclDeviceContext> device, void* data, std::size_t bytes) {
  if (device->api().aclrtHostRegister == nullptr) {
    throw Unavailable("this CANN runtime has no aclrtHostRegister: existing host memory cannot be pinned for the NPU");
  }
  return std::make_unique<HostRegistration>(std::move(device), data, bytes);
}

}  // namespace xb::acl
