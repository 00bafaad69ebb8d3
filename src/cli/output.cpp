#include "cli/output.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/run_environment.hpp"
#include "core/version.hpp"

namespace xb {

void add_output_options(CLI::App& app, OutputOptions& options) {
  app.add_option("--format", options.format, "table, json or csv");
  app.add_option("--output,-o", options.output, "write the result to FILE instead of stdout");
  app.add_flag("--quiet,-q", options.quiet, "no progress or notes on stderr");
}

namespace {

OutputFormat format_of(const OutputOptions& options) {
  const auto format = output_format_from(options.format);
  if (!format) throw UsageError(fmt::format("--format {}: expected table, json or csv", options.format));
  return *format;
}

}  // namespace

OutputFormat resolve_output(const OutputOptions& options) {
  const OutputFormat format = format_of(options);
  if (!options.output.empty()) {
    if (const std::string why = why_not_writable(options.output); !why.empty()) {
      throw UsageError(fmt::format("--output {}: {}", options.output, why));
    }
  }
  return format;
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
  // The path was proved writable before the run (resolve_output); the write below reports its own
  // failure, so no second probe file is made here.
  const OutputFormat format = format_of(options);
  if (options.output.empty()) {
    render(doc, format, ctx.out);
    return;
  }
  std::ostringstream text;
  render(doc, format, text);
  // Written whole under a temporary name and renamed: a reader never sees half a file, and a link
  // planted at the name is replaced, not written through (core/atomic_file).
  write_file_atomically(options.output, text.str());
}

}  // namespace xb
