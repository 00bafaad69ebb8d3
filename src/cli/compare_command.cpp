// Placeholder until this command lands (issue 7): replaced by its real implementation.
#include <ostream>

#include "cli/command.hpp"

namespace xb {
namespace {
int run_placeholder(const std::vector<std::string>&, CommandContext& ctx) {
  ctx.err << "compare: not built yet\n";
  return kExitUnavailable;
}
}  // namespace
extern const Command kCompareCommand{"compare", "ratios of two result files, non-zero exit on a drop", run_placeholder};
}  // namespace xb
