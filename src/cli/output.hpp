#pragma once
// --format, --output and --quiet: how every native command delivers its result document.
#include <CLI/CLI.hpp>
#include <string>

#include "cli/command.hpp"
#include "core/result.hpp"
#include "report/renderer.hpp"

namespace xb {

struct OutputOptions {
  std::string format;  // table, json, csv; "" = not given (table, or what --output's name says)
  std::string output;  // file; empty = stdout only
  bool quiet = false;
  // --units (a job command's): every bandwidth shown in GiB/s ("binary") or GB/s ("decimal"); "" =
  // each figure in its own unit (copy GiB/s and GB/s, p2p GB/s, link Gb/s).
  std::string units;
};

void add_output_options(CLI::App& app, OutputOptions& options);
// --units, for a command whose result holds bandwidths (not compare, whose figures are ratios).
void add_units_option(CLI::App& app, OutputOptions& options);
// Checks the options before a run: UsageError on a bad --format or an --output that cannot be
// written (why_not_writable). Returns the format of what is printed (or, with nothing printed, of
// the file): json means no progress on the terminal.
OutputFormat resolve_output(const OutputOptions& options);
// A document with this machine, version, time and command line, ready for cases.
ResultDocument new_result_document(const CommandContext& ctx);
// The document to the display (stdout), the file, or both (`--format table --output r.json`), as
// --format and --output ask (destinations() in output.cpp).
void deliver(const ResultDocument& doc, const OutputOptions& options, CommandContext& ctx);

}  // namespace xb
