// Scaffolding: replaced by the real command in this session's work on it.
#include "cli/command.hpp"
#include "core/error.hpp"

namespace xb {
namespace {
int run_stub(const std::vector<std::string>&, CommandContext&) { throw Unavailable("p2p is not built yet"); }
}  // namespace
extern const Command kP2pCommand{"p2p", "device-to-device bandwidth within and across nodes", run_stub};
}  // namespace xb
