// Placeholder until this command lands (issue 4): replaced by its real implementation.
#include <ostream>

#include "cli/command.hpp"

namespace xb {
namespace {
int run_placeholder(const std::vector<std::string>&, CommandContext& ctx) {
  ctx.err << "xfer: not built yet\n";
  return kExitUnavailable;
}
}  // namespace
extern const Command kXferCommand{"xfer", "one endpoint's memory into another's over UCX or TCP (server|client)", run_placeholder};
}  // namespace xb
