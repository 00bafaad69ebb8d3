// Scaffolding: replaced by the real command in this session's work on it.
#include "cli/command.hpp"
#include "core/error.hpp"

namespace xb {
namespace {
int run_stub(const std::vector<std::string>&, CommandContext&) { throw Unavailable("fleet is not built yet"); }
}  // namespace
extern const Command kFleetCommand{"fleet", "every link of an MPI job, the slow ones named", run_stub};
}  // namespace xb
