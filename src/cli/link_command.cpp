// Placeholder until this command lands (issue 4): replaced by its real implementation.
#include <ostream>

#include "cli/command.hpp"

namespace xb {
namespace {
int run_placeholder(const std::vector<std::string>&, CommandContext& ctx) {
  ctx.err << "link: not built yet\n";
  return kExitUnavailable;
}
}  // namespace
extern const Command kLinkCommand{"link", "one link's latency and bandwidth over a message-size sweep", run_placeholder};
}  // namespace xb
