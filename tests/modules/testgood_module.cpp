// A real backend module for the registry tests: the cpu backend under another name ("testgood"),
// exported through the module ABI exactly as a CUDA or Ascend module would be.
#include <memory>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/module_abi.hpp"

namespace {

class TestGoodBackend final : public xb::Backend {
 public:
  std::string_view name() const override { return "testgood"; }
  xb::Support availability() const override { return inner_->availability(); }
  int device_count() const override { return inner_->device_count(); }
  const xb::Capabilities& capabilities() const override { return inner_->capabilities(); }
  std::unique_ptr<xb::Device> open_device(int index) override { return inner_->open_device(index); }

 private:
  std::unique_ptr<xb::Backend> inner_ = xb::make_cpu_backend();
};

xb::Backend* create_backend() { return new TestGoodBackend; }

const XbBackendModule kModule{xb::kDeviceInterfaceVersion, "testgood", create_backend};

}  // namespace

extern "C" const XbBackendModule* xferbench_backend_module() { return &kModule; }
