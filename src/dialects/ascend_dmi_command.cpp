// Scaffolding: replaced by the real command in this session's work on it.
#include "cli/command.hpp"
#include "core/error.hpp"

namespace xb {
namespace {
int run_stub(const std::vector<std::string>&, CommandContext&) { throw Unavailable("ascend-dmi is not built yet"); }
}  // namespace
extern const Command kAscendDmiCommand{"ascend-dmi", "ascend-dmi --bw -t p2p, its command line and output", run_stub};
}  // namespace xb
