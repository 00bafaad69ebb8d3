#pragma once
// The xfer job: a client moves its memory into (write) or out of (read) a server's, over a
// transport, for each block size; the server exposes the memory the client asks for. A plan in, a
// result out: no formatting here.
#include <functional>
#include <iosfwd>
#include <vector>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "jobs/xfer/xfer_plan.hpp"
#include "transport/address.hpp"

namespace xb {

// Runs the client side: connects (waiting up to plan.wait for the server), asks the server for a
// region of plan.total bytes in the mode's remote place, and per block size runs the warm-up
// passes, the latency pass (each transfer alone), then the timed passes (every transfer queued,
// one flush), and with --verify checks the data the timed passes moved. `on_case` sees each block
// size's result as soon as it is complete (the HIXL dialect prints its line then).
std::vector<CaseResult> run_xfer_client(const XferPlan& plan, Backend& backend,
                                        const std::function<void(const CaseResult&)>& on_case = {});

// Runs the server side: listens on plan.control (and the transport on plan.data), calls `on_ready`
// with the bound addresses (port 0 resolved), serves one client that presents the token and
// returns once it is done. Refused connections are reported on `log`. Throws TransportError when
// no client came within plan.wait or the client vanished mid-session.
CaseResult run_xfer_server(const XferPlan& plan, Backend& backend, std::ostream& log,
                           const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_ready);

}  // namespace xb
