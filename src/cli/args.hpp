#pragma once
// CLI11 glue shared by every command: parse, turning CLI11's errors into one-line UsageErrors and
// --help into HelpRequested (printed to stdout, exit 0).
#include <CLI/CLI.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

class HelpRequested : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;  // what() is the help text
};

// Parses, then refuses an option given an empty value (refuse_empty_values).
void parse_args(CLI::App& app, const std::vector<std::string>& args);

// Long options as getopt_long(3) takes them, for the dialects of programs that parse with it: an
// unambiguous prefix of a long name stands for the name ("--skip" for "--skips", "--it=5" for
// "--iters=5"); an ambiguous one is a UsageError naming the candidates. `longs` without the dashes.
// Arguments after "--" and those that are not long options pass unchanged.
std::vector<std::string> expand_long_prefixes(const std::vector<std::string>& args,
                                              const std::vector<std::string>& longs);

// UsageError naming the first option of `app` (or of its parsed subcommands) given "" as a value.
void refuse_empty_values(const CLI::App& app);

// UsageError "FLAG: why" for the first of `flags` given, if any is (a flag that means nothing here).
void refuse_given(const CLI::App& app, std::span<const char* const> flags, std::string_view why);

}  // namespace xb
