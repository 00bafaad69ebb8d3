#pragma once
// The coll job: each collective of the plan over the size sweep, run by every rank of a group.
// Timed as SHARP's MPI tester times its perf mode, so the figures compare: per size, `warmup` untimed
// operations, then `iterations` timed ones on the monotonic clock, each after an untimed line-up
// (plan.line_up; never for barrier itself). Avg is the mean over ranks of each rank's mean, Min the
// fastest iteration of any rank, Max the slowest; bandwidth in decimal Gb/s of the row's bytes
// (iallreduce: every outstanding operation's) over Avg.
#include <vector>

#include "core/result.hpp"
#include "jobs/coll/coll_plan.hpp"
#include "jobs/job_context.hpp"

namespace xb {

// Runs the plan (validated) on ctx.collectives. At rank 0: every case, each also to ctx.on_case as
// it completes; elsewhere: none. A result the check finds wrong is a failed case (its reason names
// the collective, the size and the element), not an exception: no rank is left waiting in a collective.
std::vector<CaseResult> run(const CollPlan& plan, JobContext& ctx);

}  // namespace xb
