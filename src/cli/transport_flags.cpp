#include "cli/transport_flags.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/size.hpp"
#include "transport/address.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {

TransportChoice parse_transport_flags(const TransportFlags& flags) {
  if (!flags.transport.empty() && !transport_known(flags.transport)) {
    throw UsageError(
        fmt::format("--transport {}: this build has {}", flags.transport, fmt::join(transport_names(), " and ")));
  }
  return {.transport = flags.transport,
          .host = flags.host.empty() ? std::string() : parse_address(flags.host, "--hip", false).host,
          .token = flags.token.empty() ? default_session_token() : flags.token,
          .wait = std::chrono::seconds(parse_count(flags.wait, "--wait", 1, 24 * 3600))};
}

}  // namespace xb
