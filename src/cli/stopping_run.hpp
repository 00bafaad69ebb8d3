#pragma once
// A dialect's run that stops on Ctrl-C, SIGTERM or SIGHUP: nothing delivered (the tools print
// nothing more when interrupted), but a job using devices here still stops and unwinds, releasing
// them (an NPU's streams, memory and aclFinalize: the runtime's contract, docs/acl.md), before the
// process dies of the signal: a PartialRun that keeps nothing (at most PartialRun::kUnwindGrace).
#include <stop_token>
#include <vector>

#include "cli/command.hpp"
#include "cli/partial_results.hpp"
#include "core/result.hpp"

namespace xb {

// `job(stop)`: the job's run, `stop` handed to its JobContext. Make no thread before calling this
// (the interrupt's watcher must be the one thread taking the end signals).
template <class Job>
std::vector<CaseResult> run_stopping_on_interrupt(CommandContext& ctx, Job&& job) {
  PartialRun run(ResultDocument{}, [](const ResultDocument&) {}, ctx.out, ctx.err, /*quiet=*/true);
  const std::stop_token stop = run.stop_token();
  return run.run([&] { return job(stop); });
}

}  // namespace xb
