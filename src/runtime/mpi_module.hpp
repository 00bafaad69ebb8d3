#pragma once
// The entry point the MPI runtime module (libxferbench-runtime-mpi.so, built from runtime/mpi/)
// exports. runtime/mpi_library.cpp opens it and refuses it unless interface_version equals the
// kMpiInterfaceVersion this binary was built with: the module and the binary share C++ types
// (MpiWorld, CollectiveGroup), so a module built from other headers must not be used.
#include <cstdint>

#include "runtime/mpi_world.hpp"

namespace xb {
// Raised whenever mpi_world.hpp, collectives.hpp or runtime.hpp change what the module implements.
inline constexpr std::uint32_t kMpiInterfaceVersion = 2;
}  // namespace xb

extern "C" {

struct XbMpiModule {
  std::uint32_t interface_version;
  // The MPI library the module was linked with, as MPI_Get_library_version words it (first line).
  const char* (*library_version)();
  // MPI_Init_thread at `threads` and the world's runtime; throws std::runtime_error naming MPI's
  // error when MPI cannot start. The caller owns the result and deletes it before closing the module.
  xb::MpiWorld* (*start)(xb::MpiThreads threads);
};

const XbMpiModule* xferbench_mpi_module();
}

inline constexpr const char* kXbMpiModuleSymbol = "xferbench_mpi_module";
inline constexpr const char* kXbMpiModuleFile = "libxferbench-runtime-mpi.so";
