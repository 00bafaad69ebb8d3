#include "backends/cpu/cpu_backend.hpp"

#include <fmt/format.h>
#include <numa.h>
#include <sys/mman.h>

#include <cstring>

#include "backends/cpu/copy_kernels.hpp"
#include "backends/cpu/cpu_stream.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "memory/host_buffer.hpp"

namespace xb {
namespace {

int numa_node_count() { return numa_available() < 0 ? 1 : std::max(1, numa_num_configured_nodes()); }

// Memory of a cpu device: an anonymous mapping bound to the arena's NUMA node, every page touched so
// no copy pays for a first-touch fault.
class ArenaAllocation final : public Allocation {
 public:
  ArenaAllocation(std::size_t bytes, int numa_node) : size_(bytes), mapped_((bytes + 4095) / 4096 * 4096) {
    if (mapped_ == 0) mapped_ = 4096;
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw_errno(fmt::format("mmap of {} for a cpu device arena", format_bytes_human(mapped_)));
    data_ = p;
    if (numa_node_count() > 1) numa_tonode_memory(data_, mapped_, numa_node);
    std::memset(data_, 0, mapped_);
  }
  ~ArenaAllocation() override { munmap(data_, mapped_); }
  void* data() const override { return data_; }
  std::size_t size() const override { return size_; }
  MemoryPlace place() const override { return MemoryPlace::device; }

 private:
  void* data_ = nullptr;
  std::size_t size_;
  std::size_t mapped_;
};

class HostAllocation final : public Allocation {
 public:
  HostAllocation(std::size_t bytes, bool pinned)
      : buffer_(make_host_buffer(pinned ? HostMemoryKind::pinned : HostMemoryKind::pageable, bytes)),
        pinned_(pinned) {}
  void* data() const override { return buffer_->data(); }
  std::size_t size() const override { return buffer_->size(); }
  MemoryPlace place() const override { return pinned_ ? MemoryPlace::host_pinned : MemoryPlace::host_pageable; }

 private:
  std::unique_ptr<HostBuffer> buffer_;
  bool pinned_;
};

// Registration on the cpu backend pins the pages (mlock), as cudaHostRegister would.
class LockRegistration final : public Registration {
 public:
  LockRegistration(void* data, std::size_t bytes) : data_(data), bytes_(bytes) {
    if (mlock(data_, bytes_) != 0) {
      throw_errno(fmt::format("mlock of {} to register host memory with a cpu device", format_bytes_human(bytes)));
    }
  }
  ~LockRegistration() override { munlock(data_, bytes_); }

 private:
  void* data_;
  std::size_t bytes_;
};

class CpuDevice final : public Device {
 public:
  explicit CpuDevice(int index) {
    info_.index = index;
    info_.numa_node = index % numa_node_count();
    info_.name = fmt::format("cpu arena {} (NUMA node {})", index, info_.numa_node);
    info_.memory_bytes = numa_node_count() > 1 ? static_cast<std::uint64_t>(numa_node_size64(info_.numa_node, nullptr))
                                               : 0;
  }

  const DeviceInfo& info() const override { return info_; }

  std::unique_ptr<Allocation> allocate(std::size_t bytes) override {
    return std::make_unique<ArenaAllocation>(bytes, info_.numa_node);
  }
  std::unique_ptr<Allocation> allocate_host(std::size_t bytes, bool pinned) override {
    return std::make_unique<HostAllocation>(bytes, pinned);
  }
  std::unique_ptr<Registration> register_host(void* data, std::size_t bytes) override {
    return std::make_unique<LockRegistration>(data, bytes);
  }
  std::unique_ptr<Stream> create_stream(std::string_view engine) override {
    auto kernel = cpu::find_copy_kernel(engine);
    if (kernel == nullptr) {
      throw Unavailable(fmt::format("the cpu backend has no copy engine '{}' (it has: memcpy, nt)", engine));
    }
    return std::make_unique<cpu::CpuStream>(std::string(engine), kernel, info_.numa_node);
  }
  std::unique_ptr<Event> create_event() override { return std::make_unique<cpu::CpuEvent>(); }
  std::unique_ptr<Gate> create_gate() override { return std::make_unique<cpu::CpuGate>(); }
  double elapsed_us(Event& start, Event& end) override {
    const auto a = static_cast<cpu::CpuEvent&>(start).completed_at_ns();
    const auto b = static_cast<cpu::CpuEvent&>(end).completed_at_ns();
    return (static_cast<double>(b) - static_cast<double>(a)) / 1e3;
  }
  // Every arena is in the one address space: peers always reach each other.
  Support peer_access(Device&) override { return Support::yes(); }
  void enable_peer_access(Device&) override {}
  std::unique_ptr<DirectStorage> open_direct_storage() override {
    throw Unavailable("the cpu backend has no GPU-direct storage path (its arenas are host memory: use CPU_GPU)");
  }

 private:
  DeviceInfo info_;
};

class CpuBackend final : public Backend {
 public:
  CpuBackend() {
    caps_.engines = {"memcpy"};
    if (cpu::nontemporal_available()) caps_.engines.emplace_back("nt");
    caps_.batch_submit = true;
    caps_.peer_copy = true;
    caps_.host_register = true;
    caps_.event_timing = true;
    caps_.virtual_devices = true;
    caps_.device_memory_in_host_ram = true;
  }
  std::string_view name() const override { return "cpu"; }
  Support availability() const override { return Support::yes(); }
  // One arena per NUMA node; more may be opened (virtual_devices), spread round-robin over nodes.
  int device_count() const override { return numa_node_count(); }
  const Capabilities& capabilities() const override { return caps_; }
  std::unique_ptr<Device> open_device(int index) override {
    if (index < 0) throw UsageError(fmt::format("cpu device index {} is negative", index));
    return std::make_unique<CpuDevice>(index);
  }

 private:
  Capabilities caps_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace xb
