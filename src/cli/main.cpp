// Entry point: pick the command (from argv[0] when invoked through a dialect's link name, else
// from the first argument), run it, and turn errors into one line and an exit code.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/native_flag_words.hpp"
#include "core/cleanup.hpp"
#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "core/version.hpp"

namespace {

void print_usage(std::ostream& out) {
  out << "xferbench " << xb::program_version() << ": measure every path data takes in an AI cluster\n\n"
      << "usage: xferbench COMMAND [options]   (xferbench COMMAND --help for its options)\n"
      << "       xferbench [survey options]   (no command: the survey, e.g. xferbench --quick)\n\ncommands:\n";
  std::size_t width = 0;
  for (const auto& c : xb::commands()) width = std::max(width, c.name.size());
  // Two spaces past the longest name: the summaries never run into a name (sharp_coll_test is 15).
  for (const auto& c : xb::commands()) out << fmt::format("  {:<{}}{}\n", c.name, width + 2, c.summary);
}

}  // namespace

int main(int argc, char** argv) {
  xb::install_cleanup_signal_handlers();
  std::vector<std::string> all(argv, argv + argc);
  const std::string invoked = std::filesystem::path(all.at(0)).filename().string();

  // Busybox style: a link named after a dialect, or the name scripts call the replaced program by.
  const xb::Command* command = xb::find_command(invoked);
  if (command == nullptr) command = xb::find_link_command(invoked);
  std::vector<std::string> args(all.begin() + 1, all.end());
  std::string prog = invoked;
  if (command == nullptr) {
    // No arguments, or options only: the survey, every data path of this machine (the product's
    // main job).
    const std::string name = args.empty() ? "survey" : args.front();
    if (name == "--help" || name == "-h" || name == "help") {
      print_usage(std::cout);
      return xb::kExitOk;
    }
    if (name == "--version") {
      std::cout << "xferbench " << xb::program_version() << '\n';
      return xb::kExitOk;
    }
    // Options first (`xferbench --quick`): the survey's, the default command's.
    const bool survey_options = name.size() > 1 && name.front() == '-';
    command = xb::find_command(survey_options ? "survey" : name);
    if (command == nullptr) {
      std::cerr << fmt::format("xferbench: unknown command '{}' (try xferbench --help)\n", xb::printable_line(name));
      return xb::kExitUsage;
    }
    if (!args.empty() && !survey_options) args.erase(args.begin());
    prog = "xferbench " + std::string(command->name);
  }

  try {
    auto registry = xb::BackendRegistry::create(xb::default_module_dirs());
    xb::CommandContext ctx{*registry, all, std::cout, std::cerr};
    return command->run(args, ctx);
  } catch (const xb::HelpRequested& h) {
    std::cout << h.what();
    return xb::kExitOk;
  } catch (const xb::PlanError& e) {
    // A job's rule that no command worded: the native flags (a dialect words its own before this).
    std::cerr << prog << ": " << xb::printable_line(e.text().worded(xb::native_flag_words())) << '\n';
    return xb::kExitUsage;
  } catch (const xb::UsageError& e) {
    std::cerr << prog << ": " << xb::printable_line(e.what()) << '\n';
    return xb::kExitUsage;
  } catch (const xb::MachineLimit& e) {
    std::cerr << prog << ": not available on this machine: "
              << xb::printable_line(e.text().worded(xb::native_flag_words())) << '\n';
    return xb::kExitUnavailable;
  } catch (const xb::Unavailable& e) {
    std::cerr << prog << ": not available on this machine: " << xb::printable_line(e.what()) << '\n';
    return xb::kExitUnavailable;
  } catch (const std::exception& e) {
    std::cerr << prog << ": error: " << e.what() << '\n';
    return xb::kExitFailure;
  }
}
