#pragma once
// The tail every native job command shares once its flags are a plan: the judging and output
// flags, the run that keeps each case as it completes (cli/partial_results), the progress line, the
// verdicts, the delivery and the exit code. A command keeps only its flags → plan.
#include <CLI/CLI.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "cli/command.hpp"
#include "cli/expect_flags.hpp"
#include "cli/job_progress.hpp"
#include "cli/output.hpp"
#include "core/result.hpp"
#include "jobs/job_context.hpp"

namespace xb {

// --judge/--expect/--expect-rule, --format/--output/--quiet and --units, and what they settle.
struct JobCommandFlags {
  JudgeFlags judge;
  OutputOptions out;
  std::optional<ExpectationLayers> layers;    // load_expectations()
  OutputFormat format = OutputFormat::table;  // resolve()

  void add_to(CLI::App& app);
  // The layers, read before anything runs (a bad file: exit 2).
  void load_expectations() { layers = judge.load(); }
  // --format, --output and --units checked (exit 2); the printed format kept.
  void resolve() { format = resolve_output(out); }
};

// A job's run over the context the tail made (backend, case keeper, progress, stop).
using JobBody = std::function<std::vector<CaseResult>(JobContext&)>;

// How a run that keeps its cases delivers them and shows itself.
struct KeptRun {
  std::function<void(const ResultDocument&)> deliver;  // the finished run's delivery, also an interrupted one's
  bool quiet = false;                                  // -q: no progress, no note
  bool progress = true;                                // false: no progress line (JSON on stdout)
  std::chrono::milliseconds progress_after = job_progress_delay();
};

// `body` in a PartialRun over `blank`: the cases it returns. Make no thread before it (the
// interrupt's watcher must be the one thread taking the end signals).
std::vector<CaseResult> run_keeping_cases(CommandContext& ctx, const ResultDocument& blank, const KeptRun& how,
                                          Backend* backend, const JobBody& body);

// The whole tail: a new document, the kept run, the verdicts where layers were given, the delivery,
// the exit code (1: a verdict failed).
int run_job_command(CommandContext& ctx, const JobCommandFlags& flags, Backend* backend, const JobBody& body);

}  // namespace xb
