#pragma once
// The one entry point every xferbench module exports, whatever its kind: a backend
// (libxferbench-backend-NAME.so), a transport (libxferbench-transport-NAME.so) or the MPI runtime
// (libxferbench-runtime-mpi.so). The loader (core/shared_module) finds `xferbench_module`, checks the
// kind it was asked for and the interface version, and hands the caller the kind's operations.
#include <cstdint>

namespace xb {
// The version of the C++ interfaces a module and the binary share (backends/device.hpp,
// transport/transport.hpp and session.hpp, runtime/mpi_world.hpp, collectives.hpp, runtime.hpp and
// the ops tables of each kind). Raised whenever any of them changes: a module built from other
// headers is refused, naming both versions.
inline constexpr std::uint32_t kModuleInterfaceVersion = 9;
}  // namespace xb

extern "C" {

struct XbModule {
  std::uint32_t interface_version;  // xb::kModuleInterfaceVersion of the headers it was built from
  const char* kind;                 // "backend", "transport" or "runtime"
  const char* name;                 // "cuda", "ucx", "mpi"
  const void* ops;                  // the kind's operations: XbBackendOps, XbTransportOps or XbMpiOps
};

const XbModule* xferbench_module();
}

inline constexpr const char* kXbModuleSymbol = "xferbench_module";
