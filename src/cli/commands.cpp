// The command table: every native command and dialect, one line each.
#include <array>

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
extern const Command kIoCommand;
extern const Command kKvCommand;
extern const Command kLinkCommand;
extern const Command kP2pCommand;
extern const Command kReportCommand;
extern const Command kSharpCollTestCommand;
extern const Command kSurveyCommand;
extern const Command kXferCommand;

namespace {
const std::array<const Command*, 16> kCommands{
    &kAscendDmiCommand, &kCompareCommand, &kCopyCommand,   &kDevSandboxCommand,    &kDevicesCommand, &kFleetCommand,
    &kGdsioCommand,     &kHixlCommand,    &kIoCommand,     &kKvCommand,            &kLinkCommand,    &kP2pCommand,
    &kReportCommand,    &kSharpCollTestCommand, &kSurveyCommand, &kXferCommand};
}  // namespace

std::span<const Command> commands() {
  static const auto table = [] {
    std::vector<Command> v;
    for (const Command* c : kCommands) v.push_back(*c);
    return v;
  }();
  return table;
}

const Command* find_command(std::string_view name) {
  for (const Command& c : commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace xb
