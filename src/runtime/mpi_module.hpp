#pragma once
// The MPI runtime module's operations (libxferbench-runtime-mpi.so, built from runtime/mpi/): what
// its entry (core/module_entry.hpp, kind "runtime", name "mpi") points at. The module and the binary
// share C++ types (MpiWorld, CollectiveGroup): kModuleInterfaceVersion covers them.
#include "core/module_entry.hpp"
#include "runtime/mpi_world.hpp"

extern "C" {

struct XbMpiOps {
  // The MPI library the module was linked with, as MPI_Get_library_version words it (first line).
  const char* (*library_version)();
  // MPI_Init_thread at `threads` and the world's runtime; throws std::runtime_error naming MPI's
  // error when MPI cannot start. The caller owns the result and deletes it before closing the module.
  xb::MpiWorld* (*start)(xb::MpiThreads threads);
};
}

inline constexpr const char* kXbRuntimeKind = "runtime";
inline constexpr const char* kXbMpiModuleFile = "libxferbench-runtime-mpi.so";
