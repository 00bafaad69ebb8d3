#include "backends/acl/acl_error.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace xb::acl {

std::string failure_text(const AclApi& api, aclError e, std::string_view call, std::string_view context) {
  const char* said = api.aclGetRecentErrMsg != nullptr ? api.aclGetRecentErrMsg() : nullptr;
  const std::string words = said != nullptr && *said != '\0' ? fmt::format(" (the runtime says: {})", said) : "";
  return context.empty() ? fmt::format("{} failed: error {}{}", call, e, words)
                         : fmt::format("{} ({}) failed: error {}{}", call, context, e, words);
}

void check(const AclApi& api, aclError e, std::string_view call, std::string_view context) {
  if (e == kAclSuccess) return;
  throw std::runtime_error(failure_text(api, e, call, context));
}

}  // namespace xb::acl
