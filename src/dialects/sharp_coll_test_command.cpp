// Placeholder until this command lands (issue 4): replaced by its real implementation.
#include <ostream>

#include "cli/command.hpp"

namespace xb {
namespace {
int run_placeholder(const std::vector<std::string>&, CommandContext& ctx) {
  ctx.err << "sharp_coll_test: not built yet\n";
  return kExitUnavailable;
}
}  // namespace
extern const Command kSharpCollTestCommand{"sharp_coll_test", "sharp_coll_test's command line and output", run_placeholder};
}  // namespace xb
