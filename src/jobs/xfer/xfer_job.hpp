#pragma once
// The xfer job: a client writes its memory into (or reads it from) a server's over a transport, for
// each block size. A plan in, a result out: no formatting here.
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/xfer/xfer_plan.hpp"

namespace xb {

// Runs the plan's role on ctx.backend. Client: per block size, warm-up, a latency pass (each
// transfer alone), timed passes (all queued, one flush), and with --verify a check of the data.
// Several plan.servers run at once, a thread each with its own transport, device and memory (HIXL's
// worker per remote); cases come back in server order, config "server_index" naming the server.
// ctx.on_case sees each case as it completes, never from two threads at once. Server: serves each
// of plan.clients the memory it asks for (ctx.on_listening, ports resolved, once all listen) and
// returns a case per client as its session ends; refused connections go to ctx.log. Throws
// TransportError when no peer came within plan.wait or one vanished mid-session; with several
// threads, the first error once every thread ended.
std::vector<CaseResult> run(const XferPlan& plan, JobContext& ctx);

}  // namespace xb
