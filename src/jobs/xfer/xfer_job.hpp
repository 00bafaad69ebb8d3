#pragma once
// The xfer job: a client moves its memory into (write) or out of (read) a server's, over a
// transport, for each block size; the server exposes the memory the client asks for. A plan in, a
// result out: no formatting here.
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/xfer/xfer_plan.hpp"

namespace xb {

// Runs the plan's role on ctx.backend.
// Client: connects (waiting up to plan.wait for the server), asks the server for a region of
// plan.total bytes in the mode's remote place, and per block size runs the warm-up passes, the
// latency pass (each transfer alone), then the timed passes (every transfer queued, one flush),
// and with --verify checks the data the timed passes moved. With several plan.servers, every server
// at once, each by a thread with its own transport, device and memory (HIXL's concurrent worker per
// remote); each case's config "server_index" and "servers" name its server, and the cases come back
// in server order. ctx.on_case sees each block size's case as it completes (never from two threads
// at once).
// Server: listens on plan.control (and the transport on plan.data), calls ctx.on_listening with the
// bound addresses (port 0 resolved) once every one of its plan.clients listens, serves them (each
// by a thread of its own when several share the control address) and returns one case per client
// in the order they finished their handshake. Refused connections are reported on ctx.log.
// Throws TransportError when no client came within plan.wait or a peer vanished mid-session; with
// several threads, the first error after every thread ended.
std::vector<CaseResult> run(const XferPlan& plan, JobContext& ctx);

}  // namespace xb
