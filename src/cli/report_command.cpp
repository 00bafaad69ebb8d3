// Placeholder until this command lands (issue 7): replaced by its real implementation.
#include <ostream>

#include "cli/command.hpp"

namespace xb {
namespace {
int run_placeholder(const std::vector<std::string>&, CommandContext& ctx) {
  ctx.err << "report: not built yet\n";
  return kExitUnavailable;
}
}  // namespace
extern const Command kReportCommand{"report", "one self-contained HTML page of plots from result files", run_placeholder};
}  // namespace xb
