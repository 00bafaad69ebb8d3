// `xferbench compare BASE.json NEW.json [--threshold 0.9]`: the regression gate. A ratio per
// matching case and gated metric, the ones below the threshold marked, exit 1 when any is.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/output.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "core/split.hpp"
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

double parse_alpha(const std::string& text) {
  const std::optional<double> a = parse_finite_number(text);
  if (!a || *a <= 0 || *a >= 1) {
    throw UsageError(fmt::format("--alpha {}: expected a significance level greater than 0 and below 1 (0.05: 5%)", text));
  }
  return *a;
}

// "a.json,b.json": one side's repetitions, each file read (or one line naming the bad one).
std::vector<LoadedResult> load_side(const std::string& role, const std::string& list) {
  std::vector<LoadedResult> side;
  for (const std::string_view path : split_on(list, ',')) {
    if (path.empty()) throw UsageError(fmt::format("{} '{}': an empty file name in the list", role, list));
    side.push_back(load_result_file(std::string(path)));
  }
  return side;
}

std::vector<ResultDocument> documents(const std::vector<LoadedResult>& side) {
  std::vector<ResultDocument> docs;
  for (const auto& r : side) docs.push_back(r.doc);
  return docs;
}

int run_compare(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Compare two result files: a ratio per matching case and metric (below 1 is worse), "
               "exit 1 when any is below the threshold, when a case of BASE is missing from NEW, or when "
               "nothing matched. With repetitions (several files a side, comma-separated), a drop must "
               "also be significant (Mann-Whitney U)",
               "compare"};
  std::string base_list, new_list, threshold_text = "0.9", alpha_text = "0.05";
  OutputOptions out;
  app.add_option("BASE", base_list, "the reference result file (JSON), or its repetitions: a.json,b.json,...")->required();
  app.add_option("NEW", new_list, "the result file to check against it (JSON), or its repetitions")->required();
  app.add_option("--threshold", threshold_text, "lowest acceptable ratio, 0 < t <= 10 (default 0.9)");
  app.add_option("--alpha", alpha_text,
                 "significance level a drop needs where both sides have repetitions, 0 < a < 1 (default 0.05)");
  add_output_options(app, out);
  parse_args(app, args);

  const CompareOptions options{parse_threshold(threshold_text), parse_alpha(alpha_text)};
  const OutputFormat format = resolve_output(out);
  const std::vector<LoadedResult> base = load_side("BASE", base_list);
  const std::vector<LoadedResult> now = load_side("NEW", new_list);
  const CompareResult result = compare_results(documents(base), documents(now), options);
  // A run that ended early compares as it is; the reader is told, since BASE's
  // cases it never reached show as vanished.
  if (!out.quiet) {
    for (const auto* side : {&base, &now}) {
      for (const LoadedResult& r : *side) {
        if (!r.doc.partial.empty()) {
          ctx.err << fmt::format("xferbench compare: {} is a partial run ({}): {} case{} complete\n",
                                 printable_line(r.path), printable_line(r.doc.partial), r.doc.cases.size(),
                                 r.doc.cases.size() == 1 ? "" : "s");
        }
      }
    }
  }

  std::ostringstream text;
  render_compare(result, base, now, format, text);
  if (out.output.empty()) {
    ctx.out << text.str();
  } else {
    write_file_atomically(out.output, text.str());
    if (!out.quiet) {
      ctx.err << fmt::format("compare: {} of {} compared figures below {}{}{} (written to {})\n", result.below,
                             result.rows.size(), options.threshold,
                             result.only_in_base.empty() ? "" : fmt::format(", {} case(s) of BASE missing from NEW", result.only_in_base.size()),
                             result.matched == 0 ? ", no case matched" : "", out.output);
    }
  }
  return result.failed() ? kExitFailure : kExitOk;
}

}  // namespace

extern const Command kCompareCommand{"compare", "ratios of two result files, non-zero exit on a drop", run_compare};

}  // namespace xb
