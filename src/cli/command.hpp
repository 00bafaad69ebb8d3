#pragma once
// A subcommand (native job or dialect): a name and a function from arguments to an exit code.
// Adding one is one new file plus one line in commands.cpp.
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/registry.hpp"

namespace xb {

struct CommandContext {
  BackendRegistry& registry;
  std::vector<std::string> command_line;  // the whole argv, for the result document
  std::ostream& out;
  std::ostream& err;
};

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const std::vector<std::string>& args, CommandContext& ctx);
};

std::span<const Command> commands();
const Command* find_command(std::string_view name);
// The command a link name runs when it is not a command's own name: the names real scripts call
// the replaced programs by (HIXL's `benchmark`, `sharp_coll_test_mpi`). Null when none.
const Command* find_link_command(std::string_view invoked);

// Exit codes, the same for every command and dialect.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // a run failed (system error, verification mismatch)
inline constexpr int kExitUsage = 2;    // bad input: nothing was run or left behind
inline constexpr int kExitUnavailable = 3;  // the machine lacks what was asked for

}  // namespace xb
