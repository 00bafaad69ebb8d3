// `xferbench dev-sandbox …` (and a link named dev-sandbox): parse, run the copy job, print the seed's way.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/job_progress.hpp"
#include "dialects/dev_sandbox.hpp"
#include "dialects/dev_sandbox_aio.hpp"
#include "dialects/dev_sandbox_trans.hpp"
#include "jobs/copy/copy_job.hpp"

namespace xb {
namespace {

// One case: the copy job on the preferred backend, the case's block of the table. The note that
// the cpu stands in goes with the first case only (`note`).
std::string run_case(DevSandboxRequest req, CommandContext& ctx, bool note = true) {
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  req.plan.backend = std::string(backend.name());
  validate_copy_plan(req.plan, backend);
  if (note && !why_cpu.empty()) {
    ctx.err << fmt::format("dev-sandbox: no accelerator found ({}); running on the cpu backend\n", why_cpu);
  }
  const std::vector<CaseResult> cases = [&] {
    Progress progress = job_progress(false, false);
    // The dialect's own words on the line (the job's step is not shown: no progress in its context).
    const ProgressStep step(&progress, fmt::format("dev-sandbox: {} iterations on {} card(s)…", req.plan.iterations,
                                                   req.plan.devices));
    JobContext job{.registry = &ctx.registry, .backend = &backend};
    return run(req.plan, job);
  }();
  return render_dev_sandbox(cases.front(), req.which);
}

int run_dev_sandbox(const std::vector<std::string>& args, CommandContext& ctx) {
  // UCM's native sub-commands: `aio` is the kv job's (docs/kv.md), `copy` names its cases, `trans`
  // runs its matrix of directions, host types and methods through the copy job; the
  // quick mode's selectors (--model-type, --iodirect, --sdma) pick one case.
  if (!args.empty() && args.front() == "aio") return run_dev_sandbox_aio({args.begin() + 1, args.end()}, ctx);
  if (!args.empty() && args.front() == "copy") {
    // Every case named is parsed before the first runs.
    const auto requests = parse_dev_sandbox_copy({args.begin() + 1, args.end()});
    for (std::size_t i = 0; i < requests.size(); ++i) ctx.out << run_case(requests[i], ctx, i == 0) << std::flush;
    return kExitOk;
  }
  if (!args.empty() && args.front() == "trans") {
    const TransFilters filters = parse_dev_sandbox_trans({args.begin() + 1, args.end()});
    Backend& backend = ctx.registry.preferred();
    const TransBackend offers{std::string(backend.name()), backend.capabilities().engines,
                              backend.capabilities().batch_submit};
    std::vector<std::string> skipped;
    const auto requests = dev_sandbox_trans_cases(filters, offers, skipped);
    for (const auto& r : requests) validate_copy_plan(r.plan, backend);  // every case checked before the first runs
    for (std::size_t i = 0; i < requests.size(); ++i) ctx.out << run_case(requests[i], ctx, i == 0) << std::flush;
    // After the table, as the cpu note: which methods asked for this backend lacks.
    for (const auto& m : skipped) {
      ctx.err << fmt::format("dev-sandbox: trans: -M {} needs another backend than {}; its cases were skipped\n", m,
                             offers.name);
    }
    return kExitOk;
  }
  ctx.out << run_case(parse_dev_sandbox(args), ctx);
  return kExitOk;
}

}  // namespace

extern const Command kDevSandboxCommand{"dev-sandbox", "UCM dev-sandbox dialect (copy job; `aio`: kv job)",
                                        run_dev_sandbox};

}  // namespace xb
