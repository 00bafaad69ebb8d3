#pragma once
// Inside the xfer job (not for other code: its entry is run(const XferPlan&, JobContext&) in
// xfer_job.hpp): the client side, the server side and their one-to-many and many-to-one forms.
#include <functional>
#include <iosfwd>
#include <stop_token>
#include <vector>

#include "backends/device.hpp"
#include "core/case_sink.hpp"
#include "core/progress_line.hpp"
#include "core/result.hpp"
#include "jobs/xfer/xfer_plan.hpp"
#include "transport/address.hpp"

namespace xb {

// The client side: connects (waiting up to plan.wait), asks the server for plan.total bytes in the
// mode's remote place, and per block size runs the warm-up passes, the latency pass (each transfer
// alone), the timed passes (all queued, one flush) and with --verify checks what they moved.
// `on_case` sees each block size's case as it completes (the HIXL dialect prints it then);
// `progress` (may be null) hears each pass's bytes as it ends.
std::vector<CaseResult> run_xfer_client(const XferPlan& plan, Backend& backend, const CaseSink& on_case = {},
                                        ProgressLine* progress = nullptr, const std::stop_token& interrupt = {});

// The server side: plan.clients served at once on plan.control (the transport on plan.data), each by
// a thread with its own transport, device and memory on a SharedControlListener; `on_ready` with the
// bound addresses (port 0 resolved) once all listen. A case per client as its session ends, each to
// `on_case` (never from two threads at once); refusals to `log`. Throws TransportError when no client
// came within plan.wait or one vanished, Interrupted once `stop` is set; the first error once all ended.
std::vector<CaseResult> run_xfer_server_clients(
    const XferPlan& plan, Backend& backend, std::ostream& log,
    const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_ready,
    const CaseSink& on_case, const std::stop_token& stop = {});

// One to many: the client plan against every server at once, each by a thread with its own
// transport, device and memory (HIXL's worker per remote); `on_case` never from two threads at once.
// Every server's cases in server order, config "server_index" and "servers" naming it; the first
// error once every thread ended. `progress` hears every thread's bytes.
std::vector<CaseResult> run_xfer_clients(const XferPlan& plan, const std::vector<SocketAddress>& servers,
                                         Backend& backend, const CaseSink& on_case = {},
                                         ProgressLine* progress = nullptr, const std::stop_token& interrupt = {});

}  // namespace xb
