// `xferbench survey` (and `xferbench` with no arguments): every data path of this machine measured
// briefly by the job that owns it, one summary table on stdout, the results JSON in a file.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <ostream>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/expect_flags.hpp"
#include "cli/output.hpp"
#include "cli/job_command.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/survey_row.hpp"
#include "jobs/survey/survey_job.hpp"
#include "judge/case_figure.hpp"
#include "report/renderer.hpp"
#include "report/survey_table.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

// Where the results JSON goes when --json is not given (docs/survey.md: why the working directory).
constexpr const char* kDefaultJson = "xferbench-survey.json";

struct SurveyArgs {
  std::string dir, json = kDefaultJson, format = "table", output;
  bool quick = false, full = false, quiet = false;
};

// Every rule is checked before anything is made, so bad input leaves nothing behind.
SurveyPlan to_plan(SurveyArgs& a, const CLI::App& app) {
  if (a.quick && a.full) throw UsageError("--quick and --full: choose one of them (or neither, for the default survey)");
  SurveyPlan p;
  p.level = a.quick ? SurveyLevel::quick : a.full ? SurveyLevel::full : SurveyLevel::standard;
  p.budget = survey_budget(p.level);
  if (app.count("--dir") > 0) {
    std::error_code ec;
    if (a.dir.empty() || !fs::exists(a.dir, ec)) throw UsageError(fmt::format("--dir '{}': no such directory", a.dir));
    if (!fs::is_directory(a.dir, ec)) throw UsageError(fmt::format("--dir {}: not a directory", a.dir));
    if (::access(a.dir.c_str(), W_OK | X_OK) != 0) {
      throw UsageError(fmt::format("--dir {}: not writable (the survey makes its storage file there)", a.dir));
    }
    p.directory = fs::absolute(a.dir);
  }
  // --format and --output, the words every command takes, over --json's older spelling.
  if (a.format != "table" && a.format != "json") throw UsageError(fmt::format("--format {}: the survey prints table or json", a.format));
  if (app.count("--output") > 0 && app.count("--json") > 0) throw UsageError("--output and --json: the same file, given twice: choose one");
  if (app.count("--output") > 0) a.json = a.output;
  if (a.format == "json") {
    if (app.count("--json") > 0 && a.json != "-") throw UsageError("--format json prints the JSON: no --json FILE with it");
    if (app.count("--output") > 0) throw UsageError("--format json prints the JSON: no --output with it");
    a.json = "-";
  }
  if (a.json.empty()) throw UsageError(fmt::format("--{}: expected a file name, or - for the JSON on stdout",
                                                   app.count("--output") > 0 ? "output" : "json"));
  // Found out now, not after the survey ran (a read-only working directory, say): the same probe
  // as every command's -o.
  if (a.json != "-") {
    if (const std::string why = why_not_writable(a.json); !why.empty()) {
      throw UsageError(fmt::format("--json {}: {}", a.json, why));
    }
  }
  return p;
}

// Each row's own figure (its headline metric) is what the survey judges: an IOPS row stays
// unjudged (not a bandwidth) rather than being judged on a throughput the table does not show.
std::string row_metric(const CaseResult& c) {
  const auto row = survey_row_of(c);
  return row ? row->metric : "";
}

int run_survey_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Every data path of this machine, measured briefly: one summary table and a results JSON", "survey"};
  SurveyArgs a;
  app.add_option("--dir", a.dir, "measure storage in a temporary directory made here (default: the working directory)");
  app.add_flag("--quick", a.quick, "about 10 s: fewer iterations, a smaller file");
  app.add_flag("--full", a.full, "the sweeps: copy and link over sizes, storage reads over IO sizes, the tcp transport");
  app.add_option("--json", a.json, fmt::format("write the results here (default {}); - prints the JSON instead of the table",
                                               kDefaultJson));
  app.add_option("--format", a.format, "table (with the results file written, the default) or json (the JSON printed instead)");
  app.add_option("-o,--output", a.output, fmt::format("the results file (default {}); the same as --json FILE", kDefaultJson));
  app.add_flag("--quiet,-q", a.quiet, "no progress on stderr");
  ExpectFlags expect;
  expect.add_to(app);
  parse_args(app, args);
  const SurveyPlan plan = to_plan(a, app);  // settles a.json from --format and --output
  // The survey always judges; the layers are read before anything runs (a bad file: exit 2).
  const ExpectationLayers layers = expect.load();
  const bool json_mode = a.json == "-";

  // The table and the results file, or the JSON alone: for the finished run and an interrupted one.
  const auto deliver_survey = [&](const ResultDocument& d) {
    if (json_mode) {
      render_json(d, ctx.out);
    } else {
      render_survey_table(d, ctx.out);
      OutputOptions file{.format = "json", .output = a.json, .quiet = a.quiet, .units = ""};
      deliver(d, file, ctx);
      ctx.out << fmt::format("\nresults: {} (xferbench report / compare read it)\n", a.json);
    }
  };
  ResultDocument doc = new_result_document(ctx);
  // The survey's steps are shown at once: it is long by design.
  const KeptRun how{.deliver = deliver_survey, .quiet = a.quiet, .progress = !json_mode,
                    .progress_after = std::chrono::milliseconds(0)};
  doc.cases = run_keeping_cases(ctx, doc, how, nullptr, [&](JobContext& job) { return run(plan, job); });
  judge_run(doc.cases, layers, row_metric);
  deliver_survey(doc);
  const bool failed =
      std::any_of(doc.cases.begin(), doc.cases.end(), [](const CaseResult& c) { return c.status == CaseStatus::failed; });
  return failed || any_failed(doc.cases) ? kExitFailure : kExitOk;
}

}  // namespace

extern const Command kSurveyCommand{"survey", "every data path of this machine, one summary table (the default)",
                                    run_survey_command};

}  // namespace xb
