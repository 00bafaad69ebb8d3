#pragma once
// One vocabulary for the native commands' option values: each long option's value is named by its
// kind in --help (SIZE, N, SECONDS, FILE…) instead of CLI11's TEXT, from one table, so a flag means
// one kind of value wherever it appears; the few that differ by command (link's -s takes a range,
// xfer's --block a list) are named per command in the same table. Dialects keep their tools' own
// help. (cli/native_flag_words maps a plan's fields to these flags for error messages.)
#include <CLI/CLI.hpp>

#include <string_view>

namespace xb {

// Sets the value name of every option of `app` that takes a value and still shows CLI11's default
// ("TEXT"), by `command` (a native command's name; a dialect's is left alone) and the option's long
// (or positional) name. Options the table does not know keep TEXT: ctest
// cli.EveryNativeOptionNamesItsValue finds them.
void name_option_values(CLI::App& app, std::string_view command);

}  // namespace xb
