// The one table of transports: a new transport is one folder plus one row here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "transport/tcp/tcp_transport.hpp"
#include "transport/transport.hpp"
#ifdef XB_HAVE_UCX
#include "transport/ucx/ucx_transport.hpp"
#endif

namespace xb {
namespace {

struct TransportRow {
  const char* name;
  std::unique_ptr<Transport> (*make)();
};

// In order of preference: the first row is the default (default_transport_name).
constexpr TransportRow kTransports[] = {
#ifdef XB_HAVE_UCX
    {"ucx", make_ucx_transport},
#endif
    {"tcp", make_tcp_transport},
};

}  // namespace

std::vector<std::string> transport_names() {
  std::vector<std::string> names;
  for (const auto& row : kTransports) names.emplace_back(row.name);
  return names;
}

std::string default_transport_name() { return kTransports[0].name; }

std::unique_ptr<Transport> make_transport(std::string_view name) {
  for (const auto& row : kTransports) {
    if (name == row.name) return row.make();
  }
  throw UsageError(fmt::format("--transport: '{}' is not a transport of this build (one of: {})", name,
                               fmt::join(transport_names(), ", ")));
}

}  // namespace xb
