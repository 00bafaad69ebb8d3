#include "cli/session_caps_flags.hpp"

#include <fmt/format.h>

#include "core/size.hpp"

namespace xb {

void add_session_cap_flags(CLI::App& app, SessionCapFlags& flags) {
  app.add_option("--max-exposed", flags.max_exposed,
                 fmt::format("server: bytes one client may have exposed in all (default {})",
                             format_size(kDefaultMaxExposedBytes)));
  app.add_option("--max-regions", flags.max_regions,
                 fmt::format("server: regions one client may have exposed (default {})", kDefaultMaxRegions));
}

SessionCaps parse_session_caps(const SessionCapFlags& flags) {
  SessionCaps caps;
  if (!flags.max_exposed.empty()) {
    caps.max_exposed_bytes = parse_size(flags.max_exposed, "--max-exposed");  // at least 1 byte
  }
  if (!flags.max_regions.empty()) {
    caps.max_regions = static_cast<std::uint32_t>(parse_count(flags.max_regions, "--max-regions", 1, 65536));
  }
  return caps;
}

}  // namespace xb
