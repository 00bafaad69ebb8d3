#pragma once
// MPI for a command that needs it (p2p --mpi, fleet, ascend-dmi --sp 2, sharp_coll_test under
// mpirun): the MPI runtime module opened from the module directories. Where it is missing, or its
// MPI library is (a node without libmpi.so.40), the command ends with exit 3 saying why; nothing
// else in the program needs MPI.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shared_module.hpp"
#include "runtime/mpi_world.hpp"

struct XbMpiOps;

namespace xb {

// Whether this process was started by an MPI launcher (mpirun, srun with PMI): its environment
// names a rank. Without one MPI_Init makes a singleton of one rank. Needs no MPI library (defined
// in mpi_library.cpp, in the binary, not in the module).
bool mpi_launched() noexcept;

class MpiLibrary {
 public:
  // Opens the module; throws Unavailable "NEEDED_BY: needs MPI, which is not here: WHY" when it
  // cannot (`needed_by`: the flag or command that asked, "--mpi", "fleet").
  static MpiLibrary load(const std::vector<std::filesystem::path>& module_dirs, std::string_view needed_by);
  // The module, or nothing with the reason in `why` (`xferbench devices` lists either).
  static std::optional<MpiLibrary> open(const std::vector<std::filesystem::path>& module_dirs, std::string& why);

  // Starts MPI (once per process). The world must be destroyed before this library.
  std::unique_ptr<MpiWorld> start(MpiThreads threads = MpiThreads::funneled) const;
  std::string library_version() const;
  const std::filesystem::path& file() const { return module_.file(); }

 private:
  SharedModule module_;
  const XbMpiOps* ops_ = nullptr;
};

}  // namespace xb
