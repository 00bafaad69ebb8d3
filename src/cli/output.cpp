#include "cli/output.hpp"

#include <fmt/format.h>

#include <optional>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/metric_units.hpp"
#include "core/run_environment.hpp"
#include "core/version.hpp"
#include "report/reporter.hpp"

namespace xb {

void add_output_options(CLI::App& app, OutputOptions& options) {
  app.add_option("--format", options.format, "table, json or csv (default: table, or what --output's name says)");
  app.add_option("--output,-o", options.output,
                 "write the result to FILE (.json, .csv: that format; with a different --format, that one is also "
                 "printed)");
  app.add_flag("--quiet,-q", options.quiet, "no progress or notes on stderr");
}

void add_units_option(CLI::App& app, OutputOptions& options) {
  app.add_option("--units", options.units,
                 "every bandwidth in GiB/s (binary) or GB/s (decimal), in the table and the file's display units "
                 "(default: each figure in its own unit; the JSON's values are always B/s)");
}

namespace {

// Where the result goes, worked out once from --format and --output:
//   no --output: the display (stdout) in --format, table by default;
//   --output FILE, no --format: the file in the format its name asks for (.json, .csv; else table);
//   --output FILE, --format F, a name asking for F or for nothing: the file in F (nothing printed);
//   --output FILE, --format F, a name asking for another format: both, F printed and the file in
//     its name's format (`--format table --output r.json`).
struct Destinations {
  std::optional<OutputFormat> display;
  std::optional<OutputFormat> file;
};

Destinations destinations(const OutputOptions& options) {
  std::optional<OutputFormat> asked;
  if (!options.format.empty()) {
    asked = output_format_from(options.format);
    if (!asked) throw UsageError(fmt::format("--format {}: expected table, json or csv", options.format));
  }
  if (options.output.empty()) return {asked.value_or(OutputFormat::table), std::nullopt};
  const std::optional<OutputFormat> named = output_format_of_file(options.output);
  if (!asked) return {std::nullopt, named.value_or(OutputFormat::table)};
  if (!named || *named == *asked) return {std::nullopt, asked};
  return {asked, named};
}

}  // namespace

OutputFormat resolve_output(const OutputOptions& options) {
  const Destinations to = destinations(options);
  if (!options.units.empty() && !unit_system_from(options.units)) {
    throw UsageError(fmt::format("--units {}: expected binary (GiB/s) or decimal (GB/s)", options.units));
  }
  if (!options.output.empty()) {
    if (const std::string why = why_not_writable(options.output); !why.empty()) {
      throw UsageError(fmt::format("--output {}: {}", options.output, why));
    }
  }
  return to.display.value_or(*to.file);
}

ResultDocument new_result_document(const CommandContext& ctx) {
  ResultDocument doc;
  doc.program_version = program_version();
  doc.started_at = utc_timestamp();
  doc.machine = collect_machine_info();
  doc.command_line = ctx.command_line;
  doc.environment = run_environment();
  return doc;
}

void deliver(const ResultDocument& doc, const OutputOptions& options, CommandContext& ctx) {
  const ResultDocument* file = &doc;
  const ResultDocument* shown = &doc;
  ResultDocument converted, dropped;
  if (const auto system = unit_system_from(options.units)) {
    // --units: every bandwidth in one unit. The file keeps every figure (display units converted);
    // the display leaves out copy's and kv's GB/s twin, which then repeats its GiB/s figure.
    converted = doc;
    show_bandwidth_in(converted, *system);
    dropped = converted;
    drop_decimal_twins(dropped);
    file = &converted;
    shown = &dropped;
  }
  // The file first: a display that fails (a closed pipe) still leaves it written. Its path was proved
  // writable before the run (resolve_output) and the write reports its own failure: no second probe.
  const Destinations to = destinations(options);
  if (to.file) FileReporter(*to.file, options.output).finish(*file);
  if (to.display) StreamReporter(*to.display, ctx.out).finish(*shown);
}

}  // namespace xb
