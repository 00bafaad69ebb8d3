// `xferbench compare BASE.json NEW.json [--threshold 0.9]`: the regression gate. A ratio per
// matching case and gated metric, the ones below the threshold marked, exit 1 when any is.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sstream>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "core/atomic_file.hpp"
#include "report/compare.hpp"
#include "report/compare_render.hpp"
#include "report/result_files.hpp"

namespace xb {
namespace {

double parse_threshold(const std::string& text) {
  const std::optional<double> t = parse_finite_number(text);
  if (!t || *t <= 0 || *t > kMaxCompareThreshold) {
    throw UsageError(fmt::format("--threshold {}: expected a number greater than 0 and at most {} (0.9: NEW may be 10% worse)",
                                 text, kMaxCompareThreshold));
  }
  return *t;
}

int run_compare(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Compare two result files: a ratio per matching case and metric (below 1 is worse), "
               "exit 1 when any is below the threshold",
               "compare"};
  std::string base_path, new_path, threshold_text = "0.9";
  OutputOptions out;
  app.add_option("BASE", base_path, "the reference result file (JSON)")->required();
  app.add_option("NEW", new_path, "the result file to check against it (JSON)")->required();
  app.add_option("--threshold", threshold_text, "lowest acceptable ratio, 0 < t <= 10 (default 0.9)");
  add_output_options(app, out);
  parse_args(app, args);

  const double threshold = parse_threshold(threshold_text);
  const OutputFormat format = resolve_output(out);
  const LoadedResult base = load_result_file(base_path);
  const LoadedResult now = load_result_file(new_path);
  const CompareResult result = compare_results(base.doc, now.doc, threshold);

  std::ostringstream text;
  render_compare(result, base, now, format, text);
  if (out.output.empty()) {
    ctx.out << text.str();
  } else {
    write_file_atomically(out.output, text.str());
    if (!out.quiet) {
      ctx.err << fmt::format("compare: {} of {} compared figures below {} (written to {})\n", result.below,
                             result.rows.size(), threshold, out.output);
    }
  }
  return result.below > 0 ? kExitFailure : kExitOk;
}

}  // namespace

extern const Command kCompareCommand{"compare", "ratios of two result files, non-zero exit on a drop", run_compare};

}  // namespace xb
