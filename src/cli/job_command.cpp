#include "cli/job_command.hpp"

#include <unistd.h>

#include "cli/partial_results.hpp"
#include "cli/progress.hpp"
#include "judge/case_figure.hpp"

namespace xb {

void JobCommandFlags::add_to(CLI::App& app) {
  judge.add_to(app);
  add_output_options(app, out);
  add_units_option(app, out);
}

std::vector<CaseResult> run_keeping_cases(CommandContext& ctx, const ResultDocument& blank, const KeptRun& how,
                                          Backend* backend, const JobBody& body) {
  PartialRun partial(blank, how.deliver, ctx.out, ctx.err, how.quiet);
  Progress progress(STDERR_FILENO, !how.quiet && how.progress && Progress::is_terminal(STDERR_FILENO),
                    how.progress_after);
  partial.before_delivery([&] { progress.silence(); });
  JobContext job{.registry = &ctx.registry, .backend = backend, .on_case = partial.keeper(), .progress = &progress,
                 .stop = partial.stop_token()};
  return partial.run([&] { return body(job); });
}

int run_job_command(CommandContext& ctx, const JobCommandFlags& flags, Backend* backend, const JobBody& body) {
  ResultDocument doc = new_result_document(ctx);
  const KeptRun how{.deliver = [&](const ResultDocument& d) { deliver(d, flags.out, ctx); },
                    .quiet = flags.out.quiet,
                    .progress = flags.format != OutputFormat::json};
  doc.cases = run_keeping_cases(ctx, doc, how, backend, body);
  if (flags.layers) judge_run(doc.cases, *flags.layers);
  deliver(doc, flags.out, ctx);
  return any_failed(doc.cases) ? kExitFailure : kExitOk;
}

}  // namespace xb
