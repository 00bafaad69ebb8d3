#pragma once
// --format, --output and --quiet: how every native command delivers its result document.
#include <CLI/CLI.hpp>
#include <string>

#include "cli/command.hpp"
#include "core/result.hpp"
#include "report/renderer.hpp"

namespace xb {

struct OutputOptions {
  std::string format = "table";
  std::string output;  // file; empty = stdout
  bool quiet = false;
};

void add_output_options(CLI::App& app, OutputOptions& options);
// Checks the options before a run: UsageError on a bad --format or an --output that cannot be
// written (why_not_writable).
OutputFormat resolve_output(const OutputOptions& options);
// A document with this machine, version, time and command line, ready for cases.
ResultDocument new_result_document(const CommandContext& ctx);
// Renders to --output (written whole to a temporary name, then renamed) or to stdout.
void deliver(const ResultDocument& doc, const OutputOptions& options, CommandContext& ctx);

}  // namespace xb
