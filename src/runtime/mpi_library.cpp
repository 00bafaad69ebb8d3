#include "runtime/mpi_library.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "core/error.hpp"
#include "runtime/mpi_module.hpp"

namespace xb {

bool mpi_launched() noexcept {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

std::optional<MpiLibrary> MpiLibrary::open(const std::vector<std::filesystem::path>& module_dirs, std::string& why) {
  OpenedModule opened = open_module(module_dirs, kXbMpiModuleFile, kXbRuntimeKind);
  if (!opened.module) {
    why = std::move(opened.why);
    return std::nullopt;
  }
  MpiLibrary lib;
  lib.module_ = std::move(opened.module);
  lib.ops_ = opened.ops_as<XbMpiOps>();
  return lib;
}

MpiLibrary MpiLibrary::load(const std::vector<std::filesystem::path>& module_dirs, std::string_view needed_by) {
  std::string why;
  std::optional<MpiLibrary> lib = open(module_dirs, why);
  if (!lib) throw Unavailable(fmt::format("{}: needs MPI, which is not here: {}", needed_by, why));
  return std::move(*lib);
}

std::unique_ptr<MpiWorld> MpiLibrary::start(MpiThreads threads) const {
  return std::unique_ptr<MpiWorld>(ops_->start(threads));
}

std::string MpiLibrary::library_version() const { return ops_->library_version(); }

}  // namespace xb
