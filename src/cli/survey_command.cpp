// Scaffolding: replaced by the real command in this session's work on it.
#include "cli/command.hpp"
#include "core/error.hpp"

namespace xb {
namespace {
int run_stub(const std::vector<std::string>&, CommandContext&) { throw Unavailable("survey is not built yet"); }
}  // namespace
extern const Command kSurveyCommand{"survey", "every data path of this machine, one summary table", run_stub};
}  // namespace xb
