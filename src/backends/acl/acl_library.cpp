#include "backends/acl/acl_library.hpp"

#include <fmt/format.h>
#include <sys/utsname.h>

#include <cstdlib>

#include "core/split.hpp"

namespace xb::acl {
namespace {

void add_toolkit_dirs(std::vector<std::filesystem::path>& dirs, const std::filesystem::path& root,
                      const std::string& arch) {
  dirs.push_back(root / "lib64");
  if (!arch.empty()) dirs.push_back(root / (arch + "-linux") / "lib64");
}

std::string machine_arch() {
  utsname u{};
  return uname(&u) == 0 ? std::string(u.machine) : std::string();
}

// Resolves `name` into `slot`; a missing required function is named in `missing`.
template <typename Fn>
void resolve(const SharedModule& lib, const char* name, Fn& slot, bool required, std::string& missing) {
  slot = reinterpret_cast<Fn>(lib.symbol(name));
  if (slot == nullptr && required) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", name);
}

}  // namespace

std::vector<std::filesystem::path> acl_library_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* ld = std::getenv("LD_LIBRARY_PATH"); ld != nullptr) {
    for (const std::string_view d : split_on(ld, ':')) {
      if (!d.empty()) dirs.emplace_back(d);
    }
  }
  const std::string arch = machine_arch();
  for (const char* var : {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"}) {
    if (const char* root = std::getenv(var); root != nullptr && *root != '\0') add_toolkit_dirs(dirs, root, arch);
  }
  add_toolkit_dirs(dirs, "/usr/local/Ascend/ascend-toolkit/latest", arch);
  add_toolkit_dirs(dirs, "/usr/local/Ascend/cann", arch);
  if (!arch.empty()) dirs.emplace_back("/usr/lib/" + arch + "-linux-gnu");
  for (const char* d : {"/usr/local/lib", "/usr/lib", "/lib"}) dirs.emplace_back(d);
  return dirs;
}

std::optional<std::filesystem::path> find_acl_library(std::string& why) {
  const auto dirs = acl_library_dirs();
  for (const auto& dir : dirs) {
    for (const char* name : kAclLibraryNames) {
      std::error_code ec;
      if (std::filesystem::is_regular_file(dir / name, ec)) return dir / name;
    }
  }
  std::string looked;
  for (const auto& dir : dirs) looked += fmt::format("{}{}", looked.empty() ? "" : ", ", dir.string());
  why = fmt::format("CANN's runtime is not installed: neither libascendcl.so nor libacl_rt.so is in {} (source the "
                    "toolkit's set_env.sh, or set ASCEND_HOME_PATH)",
                    looked);
  return std::nullopt;
}

std::optional<AclLibrary> AclLibrary::open(const std::filesystem::path& file, std::string& why) {
  std::string dl_why;
  SharedModule lib = SharedModule::open(file, dl_why);
  if (!lib) {
    why = fmt::format("{} cannot be loaded: {}", file.string(), dl_why);
    return std::nullopt;
  }
  AclLibrary out;
  AclApi& a = out.api_;
  std::string missing;
#define XB_ACL_REQUIRED(name) resolve(lib, #name, a.name, true, missing)
#define XB_ACL_OPTIONAL(name) resolve(lib, #name, a.name, false, missing)
  XB_ACL_REQUIRED(aclInit);
  XB_ACL_REQUIRED(aclFinalize);
  XB_ACL_REQUIRED(aclGetRecentErrMsg);
  XB_ACL_REQUIRED(aclrtSetDevice);
  XB_ACL_REQUIRED(aclrtResetDevice);
  XB_ACL_REQUIRED(aclrtGetDeviceCount);
  XB_ACL_REQUIRED(aclrtGetCurrentContext);
  XB_ACL_REQUIRED(aclrtSetCurrentContext);
  XB_ACL_REQUIRED(aclrtGetSocName);
  XB_ACL_REQUIRED(aclrtGetMemInfo);
  XB_ACL_REQUIRED(aclrtMalloc);
  XB_ACL_REQUIRED(aclrtFree);
  XB_ACL_REQUIRED(aclrtMallocHost);
  XB_ACL_REQUIRED(aclrtFreeHost);
  XB_ACL_REQUIRED(aclrtMemcpy);
  XB_ACL_REQUIRED(aclrtMemcpyAsync);
  XB_ACL_REQUIRED(aclrtCreateStream);
  XB_ACL_REQUIRED(aclrtDestroyStream);
  XB_ACL_REQUIRED(aclrtSynchronizeStream);
  XB_ACL_REQUIRED(aclrtCreateEventWithFlag);
  XB_ACL_REQUIRED(aclrtRecordEvent);
  XB_ACL_REQUIRED(aclrtSynchronizeEvent);
  XB_ACL_REQUIRED(aclrtQueryEventStatus);
  XB_ACL_REQUIRED(aclrtEventElapsedTime);
  XB_ACL_REQUIRED(aclrtStreamWaitEvent);
  XB_ACL_REQUIRED(aclrtDestroyEvent);
  XB_ACL_REQUIRED(aclrtDeviceCanAccessPeer);
  XB_ACL_REQUIRED(aclrtDeviceEnablePeerAccess);
  XB_ACL_OPTIONAL(aclrtHostRegister);
  XB_ACL_OPTIONAL(aclrtHostUnregister);
  XB_ACL_OPTIONAL(aclrtMemcpyBatchAsync);
  XB_ACL_OPTIONAL(aclrtGetDevicesTopo);
  XB_ACL_OPTIONAL(aclrtDeviceGetPCIBusId);
#undef XB_ACL_REQUIRED
#undef XB_ACL_OPTIONAL
  if (!missing.empty()) {
    why = fmt::format("{} lacks functions the acl backend needs: {} (CANN too old?)", file.string(), missing);
    return std::nullopt;
  }
  // Register and unregister come as a pair or not at all.
  if (a.aclrtHostRegister == nullptr || a.aclrtHostUnregister == nullptr) {
    a.aclrtHostRegister = nullptr;
    a.aclrtHostUnregister = nullptr;
  }
  out.module_ = std::move(lib);
  return out;
}

}  // namespace xb::acl
