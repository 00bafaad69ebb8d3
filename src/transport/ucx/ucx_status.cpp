#include "transport/ucx/ucx_status.hpp"

#include <fmt/format.h>

#include "transport/transport.hpp"

namespace xb::ucx {

std::string failure_text(std::string_view call, ucs_status_t status) {
  return fmt::format("{} failed: {}", call, ucs_status_string(status));
}

void check(ucs_status_t status, std::string_view call) {
  if (status != UCS_OK) fail(call, status);
}

void fail(std::string_view call, ucs_status_t status) { throw TransportError(failure_text(call, status)); }

}  // namespace xb::ucx
