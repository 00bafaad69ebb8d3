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
  TransportChoice c;
  c.transport = flags.transport;
  if (!c.transport.empty()) {
    if (!transport_known(c.transport)) {
      const auto names = transport_names();
      throw UsageError(fmt::format("--transport {}: this build has {}", c.transport, fmt::join(names, " and ")));
    }
  }
  if (!flags.host.empty()) c.host = parse_address(flags.host, "--hip", false).host;
  c.token = flags.token.empty() ? default_session_token() : flags.token;
  c.wait = std::chrono::seconds(parse_count(flags.wait, "--wait", 1, 24 * 3600));
  return c;
}

}  // namespace xb
