// The MPI runtime module's entry (core/module_entry.hpp) and operations (runtime/mpi_module.hpp).
#include <mpi.h>

#include <string>

#include "runtime/mpi/mpi_runtime.hpp"
#include "runtime/mpi_module.hpp"

namespace {

const char* library_version() {
  // MPI_Get_library_version may be called before MPI_Init; the first line names the library.
  static const std::string first_line = [] {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(text, &length);
    std::string all(text, static_cast<std::size_t>(length));
    return all.substr(0, all.find_first_of("\n,"));
  }();
  return first_line.c_str();
}

xb::MpiWorld* start(xb::MpiThreads threads) { return new xb::MpiRuntime(threads); }

constexpr XbMpiOps kOps{library_version, start};
constexpr XbModule kModule{xb::kModuleInterfaceVersion, kXbRuntimeKind, "mpi", &kOps};

}  // namespace

extern "C" __attribute__((visibility("default"))) const XbModule* xferbench_module() { return &kModule; }
