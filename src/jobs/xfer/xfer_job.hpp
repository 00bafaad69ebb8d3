#pragma once
// The xfer job: a client writes its memory into (or reads it from) a server's over a transport, per
// block size. A plan in, cases out: no formatting here.
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/xfer/xfer_plan.hpp"

namespace xb {

// Runs the plan's role on ctx.backend: xfer_sides.hpp's client (on every plan.servers at once) or
// server (of plan.clients; ctx.on_listening once all listen, refusals to ctx.log). ctx.on_case sees
// each case as it completes, never from two threads at once; errors as xfer_sides.hpp says.
std::vector<CaseResult> run(const XferPlan& plan, JobContext& ctx);

}  // namespace xb
