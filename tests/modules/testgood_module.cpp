// A real backend module for the registry tests: the cpu backend under another name ("testgood"),
// exported through the module ABI exactly as a CUDA or Ascend module would be, its devices
// reporting peer links as a GPU's NVLinks.
#include <memory>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/module_abi.hpp"

namespace {

// The cpu backend's device, reporting peer links as a CUDA device on an NVSwitch fabric does (18
// NVLinks, 2 of them down), so `devices` shows them as it will on such a machine.
class TestGoodDevice final : public xb::Device {
 public:
  explicit TestGoodDevice(std::unique_ptr<xb::Device> inner) : inner_(std::move(inner)), info_(inner_->info()) {
    info_.peer_links = {xb::PeerLink{"NVLink 4.0", "", true, 16, 26.5625e9}};
    info_.peer_links_down = 2;
    info_.peer_links_note = "testgood: 16 active, 2 not active";
  }
  const xb::DeviceInfo& info() const override { return info_; }
  std::unique_ptr<xb::Allocation> allocate(std::size_t bytes) override { return inner_->allocate(bytes); }
  std::unique_ptr<xb::Allocation> allocate_host(std::size_t bytes, bool pinned) override {
    return inner_->allocate_host(bytes, pinned);
  }
  std::unique_ptr<xb::Registration> register_host(void* data, std::size_t bytes) override {
    return inner_->register_host(data, bytes);
  }
  std::unique_ptr<xb::Stream> create_stream(std::string_view engine) override { return inner_->create_stream(engine); }
  std::unique_ptr<xb::Event> create_event() override { return inner_->create_event(); }
  double elapsed_us(xb::Event& start, xb::Event& end) override { return inner_->elapsed_us(start, end); }
  std::unique_ptr<xb::Gate> create_gate() override { return inner_->create_gate(); }
  xb::Support peer_access(xb::Device& peer) override { return inner_->peer_access(inner_of(peer)); }
  void enable_peer_access(xb::Device& peer) override { inner_->enable_peer_access(inner_of(peer)); }
  std::unique_ptr<xb::DirectStorage> open_direct_storage() override { return inner_->open_direct_storage(); }

 private:
  static xb::Device& inner_of(xb::Device& d) {
    auto* mine = dynamic_cast<TestGoodDevice*>(&d);
    return mine != nullptr ? *mine->inner_ : d;
  }
  std::unique_ptr<xb::Device> inner_;
  xb::DeviceInfo info_;
};

class TestGoodBackend final : public xb::Backend {
 public:
  std::string_view name() const override { return "testgood"; }
  xb::Support availability() const override { return inner_->availability(); }
  int device_count() const override { return inner_->device_count(); }
  const xb::Capabilities& capabilities() const override { return inner_->capabilities(); }
  std::unique_ptr<xb::Device> open_device(int index) override {
    return std::make_unique<TestGoodDevice>(inner_->open_device(index));
  }

 private:
  std::unique_ptr<xb::Backend> inner_ = xb::make_cpu_backend();
};

xb::Backend* create_backend() { return new TestGoodBackend; }

const XbBackendOps kOps{create_backend};
const XbModule kModule{xb::kModuleInterfaceVersion, kXbBackendKind, "testgood", &kOps};

}  // namespace

extern "C" const XbModule* xferbench_module() { return &kModule; }
