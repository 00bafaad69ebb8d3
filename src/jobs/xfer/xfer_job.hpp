#pragma once
// The xfer job: a client writes its memory into (or reads it from) a server's over a transport, per
// block size. A plan in, cases out: no formatting here.
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/xfer/xfer_plan.hpp"

namespace xb {

// Runs the plan's role on ctx.backend (xfer_sides.hpp): the client, on several plan.servers at once
// (cases in server order, config "server_index" naming the server), or the server of plan.clients
// (ctx.on_listening once all listen; refused connections to ctx.log). ctx.on_case sees each case as
// it completes, never from two threads at once. Throws TransportError when no peer came within
// plan.wait or one vanished mid-session; with several threads, the first error once every one ended.
std::vector<CaseResult> run(const XferPlan& plan, JobContext& ctx);

}  // namespace xb
