#pragma once
// The UCX transport (UCP workers, sockaddr listeners, ucp_mem_map, rkeys, put/get, flush).
#include <memory>

#include "transport/transport.hpp"

namespace xb {
// Throws Unavailable with UCX's message when UCX cannot start here.
std::unique_ptr<Transport> make_ucx_transport();
}  // namespace xb
