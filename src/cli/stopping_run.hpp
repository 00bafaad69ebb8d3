#pragma once
// A dialect's run that stops on Ctrl-C, SIGTERM or SIGHUP. The tools the dialects speak for print
// nothing more when interrupted, so nothing is delivered; but a job using devices in this process
// must still stop and unwind, releasing them (an NPU's streams, memory and aclFinalize: the
// runtime's contract, docs/acl.md), before the process dies of the signal. A PartialRun that keeps
// nothing does that: the job stops at its next check and unwinds (at most PartialRun::kUnwindGrace).
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
