// Placeholder until this command lands (issue 4): replaced by its real implementation.
#include <ostream>

#include "cli/command.hpp"

namespace xb {
namespace {
int run_placeholder(const std::vector<std::string>&, CommandContext& ctx) {
  ctx.err << "hixl: not built yet\n";
  return kExitUnavailable;
}
}  // namespace
extern const Command kHixlCommand{"hixl", "the HIXL benchmark's command line and output", run_placeholder};
}  // namespace xb
