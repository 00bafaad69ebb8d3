#pragma once
// CANN's runtime library, found and opened at run time: the Ascend backend needs no CANN to build,
// and the binary starts on machines without it. Finding is apart from opening: the parent process
// only looks for the file (opening it runs the runtime's constructors), the probe child and the
// device processes open it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backends/acl/acl_api.hpp"
#include "core/shared_module.hpp"

namespace xb::acl {

// The library's names, newest layout last: libascendcl.so (CANN's toolkit) and libacl_rt.so (the
// open-source runtime's name for the same functions).
inline constexpr const char* kAclLibraryNames[] = {"libascendcl.so", "libacl_rt.so"};

// Where it is looked for, in order: $LD_LIBRARY_PATH (what the toolkit's set_env.sh sets),
// $ASCEND_HOME_PATH/lib64, $ASCEND_TOOLKIT_HOME/lib64 (and their <arch>-linux/lib64),
// /usr/local/Ascend/ascend-toolkit/latest/lib64, /usr/local/Ascend/cann/lib64, then the system's
// library directories.
std::vector<std::filesystem::path> acl_library_dirs();

// The first library file found; nullopt with "libascendcl.so is not installed (looked in: …)".
std::optional<std::filesystem::path> find_acl_library(std::string& why);

// The opened library and its functions. Every required function must resolve; optional ones
// (AclApi's last group) are null where the runtime predates them.
class AclLibrary {
 public:
  static std::optional<AclLibrary> open(const std::filesystem::path& file, std::string& why);
  const AclApi& api() const { return api_; }
  const std::filesystem::path& file() const { return module_.file(); }

 private:
  SharedModule module_;
  AclApi api_{};
};

}  // namespace xb::acl
