// The CUDA backend module (libxferbench-backend-cuda.so): the device interface over the CUDA
// runtime, loaded at run time so one xferbench binary runs with and without GPUs. See docs/cuda.md.
#include <fmt/format.h>

#include <mutex>
#include <optional>

#include "backends/cuda/cuda_cufile.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_gate.hpp"
#include "backends/cuda/cuda_memory.hpp"
#include "backends/cuda/cuda_probe.hpp"
#include "backends/cuda/cuda_stream.hpp"
#include "backends/module_abi.hpp"
#include "core/error.hpp"

namespace xb::cuda {
namespace {

class CudaDevice final : public Device {
 public:
  CudaDevice(int index, const ProbedDevice& probed) : sm_count_(probed.sm_count) {
    info_.index = index;
    info_.name = probed.name;
    info_.memory_bytes = probed.memory_bytes;
    info_.numa_node = probed.numa_node;
    info_.pci_address = probed.pci_address;
    info_.peer_links = probed.peer_links;
    info_.peer_links_down = probed.peer_links_down;
    info_.peer_links_note = probed.peer_links_note;
    // The first CUDA call in this process: creates the device's primary context here.
    check(cudaSetDevice(index), "cudaSetDevice", fmt::format("opening cuda device {}", index));
    check(cudaFree(nullptr), "cudaFree(nullptr)", fmt::format("creating the context of cuda device {}", index));
  }

  const DeviceInfo& info() const override { return info_; }
  std::unique_ptr<Allocation> allocate(std::size_t bytes) override { return allocate_device(info_.index, bytes); }
  std::unique_ptr<Allocation> allocate_host(std::size_t bytes, bool pinned) override {
    return cuda::allocate_host(info_.index, bytes, pinned);
  }
  std::unique_ptr<Registration> register_host(void* data, std::size_t bytes) override {
    return cuda::register_host(info_.index, data, bytes);
  }
  std::unique_ptr<Stream> create_stream(std::string_view engine) override {
    auto s = make_stream(info_.index, engine, sm_count_);
    if (!s) throw Unavailable(fmt::format("the cuda backend has no copy engine '{}' (it has: ce, batch, sm)", engine));
    return s;
  }
  std::unique_ptr<Event> create_event() override { return make_event(info_.index); }
  double elapsed_us(Event& start, Event& end) override { return cuda::elapsed_us(start, end); }
  std::unique_ptr<Gate> create_gate() override { return make_gate(info_.index); }

  Support peer_access(Device& peer) override {
    auto* other = dynamic_cast<CudaDevice*>(&peer);
    if (other == nullptr) return Support::no("the peer is not a CUDA device");
    if (other->info_.index == info_.index) return Support::yes();
    int can = 0;
    check(cudaDeviceCanAccessPeer(&can, info_.index, other->info_.index), "cudaDeviceCanAccessPeer");
    if (can == 0) {
      return Support::no(fmt::format("cuda device {} cannot access device {} directly (no P2P path)", info_.index,
                                     other->info_.index));
    }
    return Support::yes();
  }
  void enable_peer_access(Device& peer) override {
    auto* other = dynamic_cast<CudaDevice*>(&peer);
    if (other == nullptr) throw std::invalid_argument("enable_peer_access: the peer is not a CUDA device");
    if (other->info_.index == info_.index) return;
    check(cudaSetDevice(info_.index), "cudaSetDevice");
    const cudaError_t e = cudaDeviceEnablePeerAccess(other->info_.index, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
      (void)cudaGetLastError();
      return;
    }
    check(e, "cudaDeviceEnablePeerAccess", fmt::format("device {} -> device {}", info_.index, other->info_.index));
  }
  std::unique_ptr<DirectStorage> open_direct_storage() override { return open_cufile(info_.index); }

 private:
  DeviceInfo info_;
  int sm_count_;
};

class CudaBackend final : public Backend {
 public:
  CudaBackend() {
    caps_.engines = engine_names();
    caps_.batch_submit = true;
    caps_.peer_copy = true;
    caps_.host_register = true;
    caps_.event_timing = true;
    // GPUD through cuFile, loaded when a run asks for it: open_direct_storage says what is missing.
    caps_.storage_direct = true;
  }
  std::string_view name() const override { return "cuda"; }
  Support availability() const override { return probe().support; }
  int device_count() const override { return static_cast<int>(probe().devices.size()); }
  const Capabilities& capabilities() const override { return caps_; }
  std::unique_ptr<Device> open_device(int index) override {
    const Probe& p = probe();
    if (!p.support.ok) throw Unavailable(fmt::format("no CUDA device can be used: {}", p.support.reason));
    if (index < 0 || index >= static_cast<int>(p.devices.size())) {
      throw UsageError(fmt::format("cuda device {} does not exist (this machine has {}: 0 to {})", index,
                                   p.devices.size(), p.devices.size() - 1));
    }
    return std::make_unique<CudaDevice>(index, p.devices[static_cast<std::size_t>(index)]);
  }

 private:
  // Probed once, on first use, in a child process (cuda_probe.hpp): keeps this process fork-safe.
  const Probe& probe() const {
    std::call_once(probed_, [this] { probe_ = probe_devices(); });
    return *probe_;
  }

  Capabilities caps_;
  mutable std::once_flag probed_;
  mutable std::optional<Probe> probe_;
};

Backend* create_backend() { return new CudaBackend; }

const XbBackendOps kOps{create_backend};
const XbModule kModule{kModuleInterfaceVersion, kXbBackendKind, "cuda", &kOps};

}  // namespace
}  // namespace xb::cuda

extern "C" const XbModule* xferbench_module() { return &xb::cuda::kModule; }
