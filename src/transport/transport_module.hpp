#pragma once
// The entry point a transport module (libxferbench-transport-NAME.so: UCX's, built from
// transport/ucx/) exports. transport_registry.cpp opens the modules it knows by name and refuses one
// unless interface_version equals the kTransportInterfaceVersion this binary was built with: the
// module and the binary share C++ types (Transport, Session, Region), so a module built from other
// headers must not be used.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "transport/transport.hpp"

namespace xb {

// Raised whenever transport.hpp or session.hpp change what a module implements.
inline constexpr std::uint32_t kTransportInterfaceVersion = 1;

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

struct XbTransportModule {
  std::uint32_t interface_version;
  const char* name;  // "ucx": the --transport name
  // A transport; throws Unavailable with the library's words when it cannot start here. The caller
  // owns the result and deletes it before the module closes.
  xb::Transport* (*create)();
  // What the library finds here; throws std::runtime_error when it cannot list anything.
  void (*resources)(xb::TransportResources& out);
};

const XbTransportModule* xferbench_transport_module();
}

inline constexpr const char* kXbTransportModuleSymbol = "xferbench_transport_module";
