#pragma once
// `xferbench link --listen`: the peer side of a link run, a session server exposing memory of its
// own device in the place the client asks for (jobs/endpoint/peer_server). The --loopback peer is
// the same server on a thread of the measuring process (PeerServerThread on 127.0.0.1).
#include <cstdint>

#include "jobs/endpoint/peer_server.hpp"
#include "jobs/job_context.hpp"

namespace xb {

// `xferbench link --listen` without a port listens here (xfer's server takes 20000).
inline constexpr std::uint16_t kLinkDefaultControlPort = 20001;

using LinkServerPlan = PeerServerPlan;

// serve_peer (peer_server.hpp) with ctx.backend, ctx.log (null: refusals not shown), ctx.on_listening.
SessionReport run(const LinkServerPlan& plan, JobContext& ctx);

}  // namespace xb
