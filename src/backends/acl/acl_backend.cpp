// The Ascend backend module (libxferbench-backend-acl.so): the device interface over CANN's ACL
// runtime, opened at run time so one xferbench binary runs with and without NPUs, and built on any
// machine (acl_api.hpp declares what it calls). See docs/acl.md.
#include <fmt/format.h>

#include <mutex>
#include <optional>

#include "backends/acl/acl_error.hpp"
#include "backends/acl/acl_memory.hpp"
#include "backends/acl/acl_probe.hpp"
#include "backends/acl/acl_session.hpp"
#include "backends/acl/acl_stream.hpp"
#include "backends/module_abi.hpp"
#include "core/error.hpp"

namespace xb::acl {
namespace {

class AclDevice final : public Device {
 public:
  AclDevice(std::shared_ptr<AclSession> session, int index, const ProbedNpu& probed)
      : context_(std::make_shared<AclDeviceContext>(std::move(session), index)) {
    info_.index = index;
    info_.name = probed.name;
    info_.memory_bytes = probed.memory_bytes;
    info_.numa_node = probed.numa_node;
    info_.pci_address = probed.pci_address;
    info_.card = probed.card;
    info_.die = probed.die;
  }

  const DeviceInfo& info() const override { return info_; }
  std::unique_ptr<Allocation> allocate(std::size_t bytes) override { return allocate_device(context_, bytes); }
  std::unique_ptr<Allocation> allocate_host(std::size_t bytes, bool pinned) override {
    return acl::allocate_host(context_, bytes, pinned);
  }
  std::unique_ptr<Registration> register_host(void* data, std::size_t bytes) override {
    return acl::register_host(context_, data, bytes);
  }
  std::unique_ptr<Stream> create_stream(std::string_view engine) override {
    auto s = make_stream(context_, engine);
    if (!s) throw Unavailable(fmt::format("the acl backend has no copy engine '{}' (it has: ce, batch)", engine));
    return s;
  }
  std::unique_ptr<Event> create_event() override { return make_event(context_); }
  double elapsed_us(Event& start, Event& end) override { return acl::elapsed_us(start, end); }

  Support peer_access(Device& peer) override {
    auto* other = dynamic_cast<AclDevice*>(&peer);
    if (other == nullptr) return Support::no("the peer is not an acl device");
    if (other->info_.index == info_.index) return Support::yes();
    std::int32_t can = 0;
    check(api(), api().aclrtDeviceCanAccessPeer(&can, info_.index, other->info_.index), "aclrtDeviceCanAccessPeer",
          fmt::format("acl device {} -> {}", info_.index, other->info_.index));
    if (can == 0) {
      return Support::no(
          fmt::format("acl device {} cannot access device {} directly (no peer path)", info_.index, other->info_.index));
    }
    return Support::yes();
  }
  void enable_peer_access(Device& peer) override {
    auto* other = dynamic_cast<AclDevice*>(&peer);
    if (other == nullptr) throw std::invalid_argument("enable_peer_access: the peer is not an acl device");
    const int to = other->info_.index;
    if (to == info_.index || context_->session().peer_enabled(info_.index, to)) return;
    context_->make_current();  // enabling acts from the current device
    check(api(), api().aclrtDeviceEnablePeerAccess(to, 0), "aclrtDeviceEnablePeerAccess",
          fmt::format("acl device {} -> device {}", info_.index, to));
    context_->session().note_peer_enabled(info_.index, to);
  }
  std::unique_ptr<DirectStorage> open_direct_storage() override {
    throw Unavailable("the acl backend has no direct storage path (no cuFile counterpart on Ascend here)");
  }

 private:
  const AclApi& api() const { return context_->api(); }

  DeviceInfo info_;
  std::shared_ptr<AclDeviceContext> context_;
};

class AclBackend final : public Backend {
 public:
  AclBackend() {
    caps_.engines = engine_names();
    caps_.peer_copy = true;
    caps_.event_timing = true;
  }
  std::string_view name() const override { return "acl"; }
  Support availability() const override { return probe().support; }
  int device_count() const override { return static_cast<int>(probe().devices.size()); }
  const Capabilities& capabilities() const override {
    // What the runtime exports decides two of them: read once the probe has answered.
    std::call_once(caps_read_, [this] {
      caps_.batch_submit = probe().batch_copies;
      caps_.host_register = probe().host_register;
    });
    return caps_;
  }
  std::unique_ptr<Device> open_device(int index) override {
    const AclProbe& p = probe();
    if (!p.support.ok) throw Unavailable(fmt::format("no NPU can be used: {}", p.support.reason));
    if (index < 0 || index >= static_cast<int>(p.devices.size())) {
      throw UsageError(fmt::format("acl device {} does not exist (this machine has {}: 0 to {})", index,
                                   p.devices.size(), p.devices.size() - 1));
    }
    // One session per process, shared by its devices and alive while any of them or their
    // resources are.
    std::shared_ptr<AclSession> session = session_.lock();
    if (!session) {
      session = std::make_shared<AclSession>(p.library);
      session_ = session;
    }
    return std::make_unique<AclDevice>(std::move(session), index, p.devices[static_cast<std::size_t>(index)]);
  }

 private:
  // Probed once, on first use, in a child process (acl_probe.hpp): keeps this process fork-safe.
  const AclProbe& probe() const {
    std::call_once(probed_, [this] { probe_ = probe_npus(); });
    return *probe_;
  }

  mutable Capabilities caps_;
  mutable std::once_flag caps_read_;
  mutable std::once_flag probed_;
  mutable std::optional<AclProbe> probe_;
  std::weak_ptr<AclSession> session_;
};

Backend* create_backend() { return new AclBackend; }

const XbBackendOps kOps{create_backend};
const XbModule kModule{kModuleInterfaceVersion, kXbBackendKind, "acl", &kOps};

}  // namespace
}  // namespace xb::acl

extern "C" const XbModule* xferbench_module() { return &xb::acl::kModule; }
