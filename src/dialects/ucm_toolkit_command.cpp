// `ucm-toolkit run dev-sandbox …` (and a link named ucm-toolkit): UCM's toolkit front end, as its
// documents run dev-sandbox. `run dev-sandbox ARGS` is `dev-sandbox ARGS` (the quick mode, `copy`, `trans`,
// `aio`); `build dev-sandbox` has nothing to build (dev-sandbox is part of this program) and says so.
#include <fmt/format.h>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "core/error.hpp"

namespace xb {
namespace {

constexpr std::string_view kForm = "expected 'run dev-sandbox ARGS' or 'build dev-sandbox' (the toolkit module "
                                   "xferbench speaks is dev-sandbox)";

int run_ucm_toolkit(const std::vector<std::string>& args, CommandContext& ctx) {
  // Its own usage, as every command answers --help (the man page is made from it).
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    throw HelpRequested(
        "Usage: ucm-toolkit run dev-sandbox [ARGS]...\n"
        "       ucm-toolkit build dev-sandbox\n\n"
        "UCM's toolkit front end, as its documents run dev-sandbox. 'run dev-sandbox ARGS' runs\n"
        "'dev-sandbox ARGS' (the quick mode, copy, trans, aio: see xferbench dev-sandbox --help);\n"
        "'build dev-sandbox' has nothing to build (dev-sandbox is part of xferbench) and says so.\n");
  }
  if (args.size() >= 2 && args[0] == "build" && args[1] == "dev-sandbox") {
    if (args.size() > 2) throw UsageError(fmt::format("build dev-sandbox {}: takes no options here", args[2]));
    ctx.out << "dev-sandbox: built into xferbench; nothing to build\n";
    return kExitOk;
  }
  if (args.size() < 2 || args[0] != "run" || args[1] != "dev-sandbox") {
    throw UsageError(fmt::format("{}: {}", args.empty() ? std::string("(no arguments)") : args[0], kForm));
  }
  return find_command("dev-sandbox")->run({args.begin() + 2, args.end()}, ctx);
}

}  // namespace

extern const Command kUcmToolkitCommand{"ucm-toolkit", "UCM toolkit front end: run dev-sandbox …, build dev-sandbox",
                                        run_ucm_toolkit};

}  // namespace xb
