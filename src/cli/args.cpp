#include "cli/args.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cli/flag_vocabulary.hpp"
#include "core/error.hpp"

namespace xb {

void parse_args(CLI::App& app, const std::vector<std::string>& args) {
  name_option_values(app, app.get_name());  // before --help can print them
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
  refuse_empty_values(app);
}

std::vector<std::string> expand_long_prefixes(const std::vector<std::string>& args,
                                              const std::vector<std::string>& longs) {
  std::vector<std::string> out;
  bool options_end = false;
  for (const auto& a : args) {
    if (options_end || a.size() < 3 || a.rfind("--", 0) != 0) {
      options_end = options_end || a == "--";
      out.push_back(a);
      continue;
    }
    const auto eq = a.find('=');
    const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::vector<std::string> matches;
    for (const auto& l : longs) {
      if (l == name) {
        matches = {l};
        break;
      }
      if (l.rfind(name, 0) == 0) matches.push_back(l);
    }
    if (matches.size() > 1) {
      throw UsageError(fmt::format("--{}: ambiguous, it begins --{}", name, fmt::join(matches, ", --")));
    }
    out.push_back(matches.empty() ? a : "--" + matches[0] + (eq == std::string::npos ? "" : a.substr(eq)));
  }
  return out;
}

void refuse_empty_values(const CLI::App& app) {
  // `-d ''` would otherwise be taken as the flag left out (the default), silently: a script whose
  // variable is unset runs something else than it says. Positional arguments are the commands' own
  // business (some take an empty one on purpose).
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() == 0 || opt->get_positional() || opt->get_expected_min() == 0) continue;
    for (const std::string& value : opt->results()) {
      if (value.empty()) {
        throw UsageError(fmt::format("{}: an empty value (give one, or leave the option out for its default)",
                                     opt->get_name(false, true)));
      }
    }
  }
  for (const CLI::App* sub : app.get_subcommands()) refuse_empty_values(*sub);
}

void refuse_given(const CLI::App& app, std::span<const char* const> flags, std::string_view why) {
  for (const char* f : flags) {
    if (app.count(f) > 0) throw UsageError(fmt::format("{}: {}", f, why));
  }
}

}  // namespace xb
