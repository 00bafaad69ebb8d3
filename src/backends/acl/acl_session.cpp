#include "backends/acl/acl_session.hpp"

#include <fmt/format.h>

#include "backends/acl/acl_error.hpp"
#include "core/error.hpp"

namespace xb::acl {
namespace {

AclLibrary open_library(const std::filesystem::path& file) {
  std::string why;
  auto lib = AclLibrary::open(file, why);
  if (!lib) throw Unavailable(why);
  return std::move(*lib);
}

}  // namespace

AclSession::AclSession(const std::filesystem::path& library) : library_(open_library(library)) {
  const aclError e = api().aclInit(nullptr);
  if (e != kAclSuccess && e != kAclErrorRepeatInitialize) {
    throw Unavailable(failure_text(api(), e, "aclInit", library.string()));
  }
  initialised_ = e == kAclSuccess;
}

AclSession::~AclSession() {
  if (initialised_) (void)api().aclFinalize();
}

void AclSession::note_device_memory(const void* start, std::size_t bytes, int device) {
  const std::lock_guard lock(mutex_);
  device_memory_[reinterpret_cast<std::uintptr_t>(start)] = {bytes, device};
}

void AclSession::forget_device_memory(const void* start) {
  const std::lock_guard lock(mutex_);
  device_memory_.erase(reinterpret_cast<std::uintptr_t>(start));
}

std::optional<AclSession::Owner> AclSession::device_memory_owner(const void* address) const {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  const std::lock_guard lock(mutex_);
  auto it = device_memory_.upper_bound(at);
  if (it == device_memory_.begin()) return std::nullopt;
  --it;
  const auto [bytes, device] = it->second;
  if (at - it->first >= bytes) return std::nullopt;
  return Owner{device, bytes - (at - it->first)};
}

bool AclSession::peer_enabled(int device, int peer) const {
  const std::lock_guard lock(mutex_);
  return peers_.count({device, peer}) != 0;
}

void AclSession::note_peer_enabled(int device, int peer) {
  const std::lock_guard lock(mutex_);
  peers_.insert({device, peer});
}

AclDeviceContext::AclDeviceContext(std::shared_ptr<AclSession> session, int index)
    : session_(std::move(session)), index_(index) {
  const AclApi& a = api();
  if (const aclError e = a.aclrtSetDevice(index); e != kAclSuccess) {
    throw Unavailable(failure_text(a, e, "aclrtSetDevice", fmt::format("opening acl device {}", index)));
  }
  if (const aclError e = a.aclrtGetCurrentContext(&context_); e != kAclSuccess) {
    const std::string text = failure_text(a, e, "aclrtGetCurrentContext", fmt::format("acl device {}", index));
    (void)a.aclrtResetDevice(index);
    throw Unavailable(text);
  }
}

AclDeviceContext::~AclDeviceContext() { (void)api().aclrtResetDevice(index_); }

void AclDeviceContext::make_current() const {
  check(api(), api().aclrtSetCurrentContext(context_), "aclrtSetCurrentContext", fmt::format("acl device {}", index_));
}

void AclDeviceContext::make_current_quietly() const noexcept { (void)api().aclrtSetCurrentContext(context_); }

}  // namespace xb::acl
