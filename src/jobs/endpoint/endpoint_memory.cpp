// EndpointMemory's factory and its three kinds: host memory (the CPU fills and checks it in place),
// device memory (through the device's stream) and null memory (registered, never touched).
#include "jobs/endpoint/endpoint_memory.hpp"

#include <fmt/format.h>
#include <sys/mman.h>

#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>

#include "backends/device_pattern.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/range.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

// What every kind checks before touching a range: std::out_of_range "CALL: [OFFSET, +BYTES) is
// outside WHAT (SIZE bytes)".
void check_range(std::string_view call, std::uint64_t offset, std::uint64_t bytes, std::uint64_t size,
                 const std::string& what) {
  if (!range_inside(offset, bytes, size)) {
    throw std::out_of_range(
        fmt::format("{}: [{}, +{}) is outside {} ({} bytes)", call, offset, bytes, what, size));
  }
}

// Pinned, as a NIC or GPU reads locked pages without faults; where the device runtime refuses
// (an mlock limit, cudaHostAlloc out of memory) the run goes on with pageable memory and says so.
std::unique_ptr<Allocation> allocate_host(Device& device, std::uint64_t bytes, std::string& description) {
  try {
    description = "host pinned";
    return device.allocate_host(bytes, true);
  } catch (const SystemError& e) {
    description = fmt::format("host pageable (pinning refused: {})", e.what());
  } catch (const Unavailable& e) {
    description = fmt::format("host pageable (pinning refused: {})", e.what());
  }
  return device.allocate_host(bytes, false);
}

class HostEndpointMemory final : public EndpointMemory {
 public:
  HostEndpointMemory(Device& device, std::uint64_t bytes)
      : memory_(allocate_host(device, bytes, description_)), data_(memory_->data()), bytes_(bytes) {}

  // Memory the transport allocated and registered (Transport::allocate_memory): "host (ucx sysv)".
  HostEndpointMemory(std::unique_ptr<LocalRegion> region, std::uint64_t bytes)
      : description_(fmt::format("host ({})", region->origin().empty() ? "allocated by the transport"
                                                                       : region->origin())),
        region_(std::move(region)), data_(region_->data()), bytes_(bytes) {}

  void* data() const override { return data_; }
  std::size_t size() const override { return bytes_; }
  std::string description() const override { return description_; }
  RegionPlace place() const override { return RegionPlace::host; }
  LocalRegion* registration() const override { return region_.get(); }

  void fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    check_range("fill", offset, bytes, bytes_, description_);
    fill_pattern(std::span(byte_at(offset), bytes), seed, offset);
  }
  std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    check_range("verify", offset, bytes, bytes_, description_);
    return find_pattern_mismatch(std::span<const std::byte>(byte_at(offset), bytes), seed, offset);
  }
  void copy_in(std::uint64_t offset, const void* host, std::uint64_t bytes) override {
    check_range("copy_in", offset, bytes, bytes_, description_);
    if (bytes != 0) std::memcpy(byte_at(offset), host, bytes);
  }
  void copy_out(std::uint64_t offset, void* host, std::uint64_t bytes) override {
    check_range("copy_out", offset, bytes, bytes_, description_);
    if (bytes != 0) std::memcpy(host, byte_at(offset), bytes);
  }

 private:
  std::byte* byte_at(std::uint64_t offset) const { return static_cast<std::byte*>(data_) + offset; }

  std::string description_;              // first: allocate_host writes it
  std::unique_ptr<Allocation> memory_;  // from the device, or
  std::unique_ptr<LocalRegion> region_;  // from the transport (owning)
  void* data_ = nullptr;
  std::uint64_t bytes_;
};

class DeviceEndpointMemory final : public EndpointMemory {
 public:
  DeviceEndpointMemory(Device& device, std::uint64_t bytes, std::string_view engine, std::string description)
      : device_(device), engine_(engine), description_(std::move(description)), memory_(device.allocate(bytes)),
        bytes_(bytes) {}

  ~DeviceEndpointMemory() override {
    // Copies still queued (a fill that threw half-way) finish before the memory they touch goes.
    if (!stream_) return;
    try {
      stream_->synchronize();
    } catch (...) {
      // Already failing; the copy error is not the one to report.
    }
  }

  void* data() const override { return memory_->data(); }
  std::size_t size() const override { return bytes_; }
  std::string description() const override { return description_; }
  RegionPlace place() const override { return RegionPlace::device; }

  void fill(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    check_range("fill", offset, bytes, bytes_, description_);
    prepare_staging();
    staging_->fill(*stream_, device_byte(0), offset, bytes, seed);
  }

  std::optional<std::uint64_t> verify(std::uint64_t offset, std::uint64_t bytes, std::uint64_t seed) override {
    check_range("verify", offset, bytes, bytes_, description_);
    prepare_staging();
    const auto bad = staging_->find_mismatch(*stream_, device_byte(0), offset, bytes, seed);
    return bad ? std::optional(bad->offset) : std::nullopt;
  }

  void copy_in(std::uint64_t offset, const void* host, std::uint64_t bytes) override {
    check_range("copy_in", offset, bytes, bytes_, description_);
    prepare_stream();
    stream_->copy({device_byte(offset), host, bytes});
    stream_->synchronize();
  }

  void copy_out(std::uint64_t offset, void* host, std::uint64_t bytes) override {
    check_range("copy_out", offset, bytes, bytes_, description_);
    prepare_stream();
    stream_->copy({host, device_byte(offset), bytes});
    stream_->synchronize();
  }

 private:
  std::byte* device_byte(std::uint64_t offset) const { return static_cast<std::byte*>(memory_->data()) + offset; }
  // Made on first use: a memory that only ever carries transfers needs no stream (on the cpu
  // backend a stream is a worker thread) and no staging.
  void prepare_stream() {
    if (!stream_) stream_ = device_.create_stream(engine_);
  }
  void prepare_staging() {
    prepare_stream();
    if (!staging_) staging_.emplace(device_, bytes_);
  }

  Device& device_;
  std::string engine_;
  std::string description_;
  std::unique_ptr<Allocation> memory_;
  std::uint64_t bytes_;
  std::optional<DevicePatternStaging> staging_;
  // Last, so it is destroyed first: its queued copies end before the memory they touch is freed.
  std::unique_ptr<Stream> stream_;
};

// sharp_coll_test's "null": data that no CPU produced or consumes, so the transfer is measured
// without any memory traffic of the program's own. MAP_NORESERVE and never written: a put from it
// reads the kernel's shared zero page; a put into it faults pages in as the transport writes.
class NullEndpointMemory final : public EndpointMemory {
 public:
  explicit NullEndpointMemory(std::uint64_t bytes) : bytes_(bytes), mapped_((bytes + 4095) / 4096 * 4096) {
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw_errno(fmt::format("mmap of {} of null endpoint memory", format_bytes_human(mapped_)));
    data_ = p;
  }
  ~NullEndpointMemory() override { munmap(data_, mapped_); }
  NullEndpointMemory(const NullEndpointMemory&) = delete;
  NullEndpointMemory& operator=(const NullEndpointMemory&) = delete;

  void* data() const override { return data_; }
  std::size_t size() const override { return bytes_; }
  std::string description() const override { return "null"; }
  RegionPlace place() const override { return RegionPlace::null; }

  void fill(std::uint64_t, std::uint64_t, std::uint64_t) override { refuse("fill"); }
  std::optional<std::uint64_t> verify(std::uint64_t, std::uint64_t, std::uint64_t) override { refuse("verify"); }
  void copy_in(std::uint64_t, const void*, std::uint64_t) override { refuse("copy_in"); }
  void copy_out(std::uint64_t, void*, std::uint64_t) override { refuse("copy_out"); }

 private:
  [[noreturn]] static void refuse(std::string_view call) {
    throw std::invalid_argument(fmt::format(
        "{}: null memory is never touched by the CPU, so it cannot be filled, verified or copied "
        "(checking data needs host or device memory)",
        call));
  }

  std::uint64_t bytes_;
  std::size_t mapped_;
  void* data_ = nullptr;
};

void check_size(std::uint64_t bytes) {
  if (bytes == 0) throw std::invalid_argument("endpoint memory: a region needs at least one byte");
}

}  // namespace

std::unique_ptr<EndpointMemory> EndpointMemory::make(Device& device, RegionPlace place, std::uint64_t bytes) {
  check_size(bytes);
  switch (place) {
    case RegionPlace::host:
      return std::make_unique<HostEndpointMemory>(device, bytes);
    case RegionPlace::null:
      return std::make_unique<NullEndpointMemory>(bytes);
    case RegionPlace::device:
      break;
  }
  throw std::invalid_argument(
      "endpoint memory: device memory needs the backend (its copy engine): use EndpointMemory::make(backend, "
      "device, place, bytes)");
}

LocalRegion& transport_registration(EndpointMemory& memory, Transport& transport, std::unique_ptr<LocalRegion>& owned) {
  if (LocalRegion* own = memory.registration()) return *own;
  owned = transport.register_memory(memory.data(), memory.size());
  return *owned;
}

std::unique_ptr<EndpointMemory> EndpointMemory::make(Backend& backend, Device& device, RegionPlace place,
                                                     std::uint64_t bytes, Transport& transport) {
  check_size(bytes);
  if (place == RegionPlace::host) {
    if (std::unique_ptr<LocalRegion> region = transport.allocate_memory(bytes)) {
      return std::make_unique<HostEndpointMemory>(std::move(region), bytes);
    }
  }
  return make(backend, device, place, bytes);
}

std::unique_ptr<EndpointMemory> EndpointMemory::make(Backend& backend, Device& device, RegionPlace place,
                                                     std::uint64_t bytes) {
  check_size(bytes);
  if (place != RegionPlace::device) return make(device, place, bytes);
  return std::make_unique<DeviceEndpointMemory>(device, bytes, backend.capabilities().engines.front(),
                                                fmt::format("{}::device::{}", backend.name(), device.info().index));
}

}  // namespace xb
