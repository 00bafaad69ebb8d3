#pragma once
// The server commands' caps on what one client may make them expose (xfer server, link --listen):
// --max-exposed SIZE (bytes exposed in all, default 64G) and --max-regions N (default 1024),
// parsed in one place so both word their rules alike. A request past a cap fails in the session
// (the client is told which cap and flag); the server goes on.
#include <CLI/CLI.hpp>
#include <string>

#include "transport/session.hpp"

namespace xb {

struct SessionCapFlags {
  std::string max_exposed;
  std::string max_regions;
};

void add_session_cap_flags(CLI::App& app, SessionCapFlags& flags);
// UsageError naming the flag: a size that is not one (or 0), a region count outside 1..65536.
SessionCaps parse_session_caps(const SessionCapFlags& flags);

}  // namespace xb
