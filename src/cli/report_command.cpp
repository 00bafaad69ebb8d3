// `xferbench report RESULTS.json… -o report.html`: one self-contained HTML page of plots and the
// configuration of every run. Every input is read and checked before the page is written, and the
// page is written whole (temporary + rename), so bad input leaves nothing behind.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "core/error.hpp"
#include "core/atomic_file.hpp"
#include "report/html_report.hpp"
#include "report/result_files.hpp"

namespace xb {
namespace {

void check_output(const std::string& output, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  if (output.empty()) throw UsageError("-o: expected a file name for the page (or - for stdout)");
  if (output == "-") return;
  if (const std::string why = why_not_writable(output); !why.empty()) {
    throw UsageError(fmt::format("-o {}: {}", output, why));
  }
  std::error_code ec;
  for (const auto& in : inputs) {
    if (fs::exists(output, ec) && fs::equivalent(output, in, ec)) {
      throw UsageError(fmt::format("-o {}: is one of the results files; the page would replace it", output));
    }
  }
}

LineBy line_by_from(const std::string& text) {
  if (text == "host") return LineBy::host;
  if (text == "file") return LineBy::file;
  throw UsageError(fmt::format("--lines {}: expected host or file", text));
}

int run_report(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Write one self-contained HTML page with plots (bandwidth against block size, latency "
               "percentiles, matrices) and the configuration of every run",
               "report"};
  std::vector<std::string> inputs;
  std::string output, lines = "host";
  bool quiet = false;
  app.add_option("RESULTS", inputs, "result files (JSON, from --format json --output)")->required();
  app.add_option("-o,--output", output, "the page to write (- for stdout)")->required();
  app.add_option("--lines", lines, "one line per host (default: a machine's files together) or per file");
  app.add_flag("--quiet,-q", quiet, "no note on stderr");
  parse_args(app, args);

  const LineBy by = line_by_from(lines);
  check_output(output, inputs);
  std::vector<LoadedResult> results;
  for (const auto& path : inputs) results.push_back(load_result_file(path));
  const std::string page = render_html_report(results, by);
  if (output == "-") {
    ctx.out << page;
    return kExitOk;
  }
  write_file_atomically(output, page);
  if (!quiet) ctx.err << fmt::format("report: wrote {} from {} result file{}\n", output, results.size(), results.size() == 1 ? "" : "s");
  return kExitOk;
}

}  // namespace

extern const Command kReportCommand{"report", "one self-contained HTML page of plots from result files", run_report};

}  // namespace xb
