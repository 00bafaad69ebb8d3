// The command table: every native command and dialect, one line each.
#include <string_view>
#include <utility>
#include <vector>

#include "cli/command.hpp"

namespace xb {

extern const Command kAscendDmiCommand;
extern const Command kCompareCommand;
extern const Command kCopyCommand;
extern const Command kDevSandboxCommand;
extern const Command kDevicesCommand;
extern const Command kFleetCommand;
extern const Command kGdsioCommand;
extern const Command kHixlCommand;
extern const Command kHixlCommBenchCommand;
extern const Command kIoCommand;
extern const Command kKvCommand;
extern const Command kLinkCommand;
extern const Command kP2pCommand;
extern const Command kReportCommand;
extern const Command kSharpCollTestCommand;
extern const Command kSurveyCommand;
extern const Command kUcmToolkitCommand;
extern const Command kXferCommand;

namespace {
// Link names (src/CMakeLists.txt makes them) -> the command they run.
constexpr std::pair<std::string_view, std::string_view> kLinkNames[] = {
    {"benchmark", "hixl"},                       // HIXL's README runs ./benchmark
    {"sharp_coll_test_mpi", "sharp_coll_test"},  // SHARP's MPI build of the same test
};
}  // namespace

std::span<const Command> commands() {
  static const std::vector<Command> table{
      kAscendDmiCommand, kCompareCommand, kCopyCommand,  kDevSandboxCommand,    kDevicesCommand, kFleetCommand,
      kGdsioCommand,     kHixlCommand,    kHixlCommBenchCommand, kIoCommand,    kKvCommand,      kLinkCommand,
      kP2pCommand,       kReportCommand,  kSharpCollTestCommand, kSurveyCommand, kUcmToolkitCommand, kXferCommand};
  return table;
}

const Command* find_command(std::string_view name) {
  for (const Command& c : commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const Command* find_link_command(std::string_view invoked) {
  for (const auto& [link, command] : kLinkNames) {
    if (link == invoked) return find_command(command);
  }
  return nullptr;
}

}  // namespace xb
