#pragma once
// One vocabulary for the native commands' option values: --help names each by its kind (SIZE, N,
// SECONDS, FILE…) instead of CLI11's TEXT, from one table, so a flag means one kind of value wherever
// it appears; the few that differ by command (link's -s takes a range, xfer's --block a list) are
// named per command in the same table. Dialects keep their tools' own help.
#include <CLI/CLI.hpp>

#include <string_view>

namespace xb {

// Names the value of every option of `app` still showing CLI11's "TEXT", by `command` (a dialect's
// is left alone) and the option's long (or positional) name. Options the table does not know keep
// TEXT: ctest cli.EveryNativeOptionNamesItsValue finds them.
void name_option_values(CLI::App& app, std::string_view command);

}  // namespace xb
