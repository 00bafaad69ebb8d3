#pragma once
// ACL's lifetime in a device process, as objects: the session (library opened, aclInit …
// aclFinalize) and a device context (aclrtSetDevice … aclrtResetDevice). Every resource the backend
// hands out (memory, streams, events, registrations) holds its device context, which holds the
// session, so the runtime is finalised only after the last of them is released, whatever order a
// job drops them in: the stand-in runtime checks that nothing is left at aclFinalize.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "backends/acl/acl_library.hpp"

namespace xb::acl {

class AclSession {
 public:
  // Opens the library and runs aclInit; throws Unavailable naming the library and the failure.
  explicit AclSession(const std::filesystem::path& library);
  ~AclSession();
  AclSession(const AclSession&) = delete;
  AclSession& operator=(const AclSession&) = delete;

  const AclApi& api() const { return library_.api(); }

  // Device memory of any device of this process, by address: what a copy's direction is read from
  // (the runtime's memcpy wants the kind spelled out, and only newer runtimes infer it).
  void note_device_memory(const void* start, std::size_t bytes, int device);
  void forget_device_memory(const void* start);
  struct Owner {
    int device = -1;
    std::size_t bytes_after = 0;  // from the address to the end of its allocation (a copy's destMax)
  };
  std::optional<Owner> device_memory_owner(const void* address) const;

  // Peer access enabled from `device` to `peer` in this process (the runtime enables it once).
  bool peer_enabled(int device, int peer) const;
  void note_peer_enabled(int device, int peer);

 private:
  AclLibrary library_;
  bool initialised_ = false;  // our aclInit succeeded (a repeat belongs to someone else)
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, std::pair<std::size_t, int>> device_memory_;  // start -> (bytes, device)
  std::set<std::pair<int, int>> peers_;
};

class AclDeviceContext {
 public:
  // aclrtSetDevice and the context it makes; throws Unavailable when the device cannot be opened.
  AclDeviceContext(std::shared_ptr<AclSession> session, int index);
  ~AclDeviceContext();
  AclDeviceContext(const AclDeviceContext&) = delete;
  AclDeviceContext& operator=(const AclDeviceContext&) = delete;

  // Makes this device current on the calling thread (a job's threads are not the one that opened
  // it): cheap, and not counted as aclrtSetDevice is.
  void make_current() const;
  // The same in destructors: a failure there has nowhere to go (the release that follows reports).
  void make_current_quietly() const noexcept;
  const AclApi& api() const { return session_->api(); }
  AclSession& session() const { return *session_; }
  int index() const { return index_; }

 private:
  std::shared_ptr<AclSession> session_;
  int index_;
  aclrtContext context_ = nullptr;
};

}  // namespace xb::acl
