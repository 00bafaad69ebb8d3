#pragma once
// A transport module's operations (libxferbench-transport-NAME.so: UCX's, built from transport/ucx/):
// what its entry (core/module_entry.hpp, kind "transport") points at. transport_registry.cpp opens the
// modules it knows by name. The module and the binary share C++ types (Transport, Session, Region):
// kModuleInterfaceVersion covers them.
#include <filesystem>
#include <string>
#include <vector>

#include "core/module_entry.hpp"
#include "transport/transport.hpp"

namespace xb {

// What a transport finds on this machine (`xferbench devices`, the survey): per transport and
// device, as `ucx_info -d` lists UCX's.
struct TransportResource {
  std::string transport;  // "tcp", "posix", "rc_verbs"
  std::string device;     // "eth0", "memory", "mlx5_0:1"
  std::string kind;       // "network", "shared memory", "accelerator", "loopback"
};

struct TransportResources {
  std::string version;  // the library's version: "1.13.1"
  std::vector<TransportResource> rows;
  // What could not be opened or queried, with why (not fatal: the rest is listed).
  std::vector<std::string> problems;
};

// A transport module this binary knows by name: where it was opened and what it finds here, or
// why it could not be opened. transport_modules() lists every one (transport_registry.cpp).
struct TransportModuleState {
  std::string name;            // "ucx"
  std::filesystem::path file;  // empty when it could not be opened
  TransportResources resources;
  std::string why_not;  // empty when opened
};
std::vector<TransportModuleState> transport_modules();

}  // namespace xb

extern "C" {

struct XbTransportOps {
  // A transport; throws Unavailable with the library's words when it cannot start here. The caller
  // owns the result and deletes it before the module closes.
  xb::Transport* (*create)();
  // What the library finds here; throws std::runtime_error when it cannot list anything.
  void (*resources)(xb::TransportResources& out);
};
}

inline constexpr const char* kXbTransportKind = "transport";
