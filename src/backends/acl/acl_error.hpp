#pragma once
// Every ACL call checked: a failure names the call, what it was doing (sizes, devices), the
// runtime's error code and its own words for it (aclGetRecentErrMsg, which also clears it).
#include <string>
#include <string_view>

#include "backends/acl/acl_api.hpp"

namespace xb::acl {

// "aclrtMalloc (4 MiB on acl device 0) failed: error 207001 (the runtime says: out of memory)".
std::string failure_text(const AclApi& api, aclError e, std::string_view call, std::string_view context);

// Throws std::runtime_error with failure_text unless `e` is success.
void check(const AclApi& api, aclError e, std::string_view call, std::string_view context = {});

}  // namespace xb::acl
