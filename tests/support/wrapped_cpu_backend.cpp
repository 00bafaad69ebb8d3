#include "support/wrapped_cpu_backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"

namespace xb::test {
namespace {

class WrappedDevice final : public Device {
 public:
  WrappedDevice(std::unique_ptr<Device> real, const CpuWrap& wrap, int index)
      : real_(std::move(real)), wrap_(wrap), info_(real_->info()) {
    if (wrap_.pci_address) info_.pci_address = wrap_.pci_address(index);
    if (wrap_.info) wrap_.info(index, info_);
  }
  const DeviceInfo& info() const override { return info_; }
  std::unique_ptr<Allocation> allocate(std::size_t bytes) override { return real_->allocate(bytes); }
  std::unique_ptr<Allocation> allocate_host(std::size_t bytes, bool pinned) override {
    return real_->allocate_host(bytes, pinned);
  }
  std::unique_ptr<Registration> register_host(void* data, std::size_t bytes) override {
    return real_->register_host(data, bytes);
  }
  std::unique_ptr<Stream> create_stream(std::string_view engine) override {
    auto real = real_->create_stream(engine);
    return wrap_.stream ? wrap_.stream(std::move(real), engine) : std::move(real);
  }
  std::unique_ptr<Event> create_event() override { return real_->create_event(); }
  // A device without event timing has no elapsed time to give (the contract of the capability): a
  // job that asks anyway is caught here, not handed the cpu backend's answer.
  double elapsed_us(Event& a, Event& b) override {
    if (!wrap_.event_timing) throw std::logic_error("elapsed_us on a device whose capabilities say no event timing");
    return real_->elapsed_us(a, b);
  }
  std::unique_ptr<Gate> create_gate() override { return wrap_.gate ? wrap_.gate(real_->create_gate()) : nullptr; }
  Support peer_access(Device& peer) override { return real_->peer_access(unwrap(peer)); }
  void enable_peer_access(Device& peer) override { real_->enable_peer_access(unwrap(peer)); }
  std::unique_ptr<DirectStorage> open_direct_storage() override {
    return wrap_.direct_storage ? wrap_.direct_storage() : real_->open_direct_storage();
  }

 private:
  static Device& unwrap(Device& d) {
    auto* w = dynamic_cast<WrappedDevice*>(&d);
    return w != nullptr ? *w->real_ : d;
  }
  std::unique_ptr<Device> real_;
  const CpuWrap& wrap_;
  DeviceInfo info_;
};

class WrappedBackend final : public Backend {
 public:
  explicit WrappedBackend(CpuWrap wrap) : real_(make_cpu_backend()), wrap_(std::move(wrap)) {
    caps_ = real_->capabilities();
    caps_.device_memory_in_host_ram = wrap_.device_memory_in_host_ram;
    caps_.event_timing = wrap_.event_timing;
    if (wrap_.direct_storage) caps_.storage_direct = true;
  }
  std::string_view name() const override { return real_->name(); }
  Support availability() const override { return real_->availability(); }
  int device_count() const override { return real_->device_count(); }
  const Capabilities& capabilities() const override { return caps_; }
  std::unique_ptr<Device> open_device(int index) override {
    return std::make_unique<WrappedDevice>(real_->open_device(index), wrap_, index);
  }

 private:
  std::unique_ptr<Backend> real_;
  CpuWrap wrap_;
  Capabilities caps_;
};

// The holding streams of one process (one device per process in the jobs that fork).
class HoldingGroup;

class HoldingStream final : public ForwardingStream {
 public:
  HoldingStream(std::unique_ptr<Stream> real, std::shared_ptr<HoldingGroup> group);
  ~HoldingStream() override;
  void copy(const CopyOp& op) override { held_.push_back(op); }
  void copy_batch(std::span<const CopyOp> ops) override { held_.insert(held_.end(), ops.begin(), ops.end()); }
  void flush() override {
    if (held_.empty()) return;
    real().copy_batch(held_);
    held_.clear();
  }
  void record(Event& e) override {
    flush();
    real().record(e);
  }
  void wait(Event& e) override {
    flush();
    real().wait(e);
  }
  void synchronize() override;
  std::size_t held() const { return held_.size(); }

 private:
  std::shared_ptr<HoldingGroup> group_;
  std::vector<CopyOp> held_;
};

class HoldingGroup {
 public:
  void join(HoldingStream* s) {
    std::lock_guard lock(mutex_);
    streams_.push_back(s);
  }
  void leave(HoldingStream* s) {
    std::lock_guard lock(mutex_);
    streams_.erase(std::remove(streams_.begin(), streams_.end(), s), streams_.end());
  }
  // Copies other streams than `s` still hold.
  std::size_t held_by_others(const HoldingStream* s) {
    std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const HoldingStream* o : streams_) n += o == s ? 0 : o->held();
    return n;
  }

 private:
  std::mutex mutex_;
  std::vector<HoldingStream*> streams_;
};

HoldingStream::HoldingStream(std::unique_ptr<Stream> real, std::shared_ptr<HoldingGroup> group)
    : ForwardingStream(std::move(real)), group_(std::move(group)) {
  group_->join(this);
}

HoldingStream::~HoldingStream() { group_->leave(this); }

void HoldingStream::synchronize() {
  if (const std::size_t others = group_->held_by_others(this); others != 0) {
    throw std::logic_error(fmt::format(
        "a stream was waited on while other streams still held {} copies: they would start only after it "
        "ended (the streams ran one after another)",
        others));
  }
  flush();
  real().synchronize();
}

}  // namespace

std::unique_ptr<Backend> make_wrapped_cpu_backend(CpuWrap wrap) { return std::make_unique<WrappedBackend>(std::move(wrap)); }

CpuWrap holding_streams() {
  auto group = std::make_shared<HoldingGroup>();
  CpuWrap w;
  w.stream = [group](std::unique_ptr<Stream> real, std::string_view) -> std::unique_ptr<Stream> {
    return std::make_unique<HoldingStream>(std::move(real), group);
  };
  return w;
}

}  // namespace xb::test
