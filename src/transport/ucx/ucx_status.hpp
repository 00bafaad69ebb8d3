#pragma once
// Turning UCX status codes into xferbench errors: every UCX call is checked, and the message names
// the call, its subject (a peer, an address) and UCX's own text for the status.
#include <ucs/type/status.h>

#include <string>
#include <string_view>

namespace xb::ucx {

// "CALL failed: <ucs_status_string>", e.g. "ucp_ep_flush_nbx(peer 127.0.0.1:4000) failed: Timeout".
std::string failure_text(std::string_view call, ucs_status_t status);

// Throws TransportError with failure_text when status is not UCS_OK.
void check(ucs_status_t status, std::string_view call);
[[noreturn]] void fail(std::string_view call, ucs_status_t status);

}  // namespace xb::ucx
