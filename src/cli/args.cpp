#include "cli/args.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace xb {

void parse_args(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    throw HelpRequested(app.help());
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw UsageError(what + " (see --help)");
  }
}

}  // namespace xb
