#pragma once
// The plain TCP transport: the baseline. One socket per endpoint; the passive side serves put/get
// requests into and out of its registered regions, every offset checked against the region.
#include <memory>

#include "transport/transport.hpp"

namespace xb {
std::unique_ptr<Transport> make_tcp_transport();
}  // namespace xb
