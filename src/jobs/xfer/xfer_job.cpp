// The xfer job's one entry: the plan's role and how many peers pick the side that runs.
#include "jobs/xfer/xfer_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "jobs/xfer/xfer_sides.hpp"

namespace xb {

std::vector<CaseResult> run(const XferPlan& plan, JobContext& ctx) {
  Backend& backend = ctx.need_backend("xfer");
  if (plan.role == XferRole::server) {
    std::ostringstream nowhere;  // no log given: refusals are still counted by the session, not shown
    std::ostream& log = ctx.log != nullptr ? *ctx.log : nowhere;
    return run_xfer_server_clients(plan, backend, log, ctx.on_listening, ctx.on_case, ctx.stop);
  }
  const ProgressStep step(ctx.progress,
                          fmt::format("xfer: {} {} over {}…", to_string(plan.op), to_string(plan.mode), plan.transport));
  // The work, for the line's share done: per block size the warm-up passes, the latency pass and
  // the timed passes, each of every transfer; per server when it fans out.
  std::uint64_t work = 0;
  for (const std::uint64_t block : plan.blocks) {
    // (The plan is validated later, by the side that runs: a zero block is refused there.)
    const std::uint64_t pass = block > 0 ? xfer_transfer_count(plan.total, block) * block : 0;
    work += pass * (plan.warmup + (plan.latency ? 1 : 0) + plan.iters);
  }
  step.expect_bytes(work * std::max<std::uint64_t>(plan.servers.size(), 1));
  if (plan.servers.size() > 1) return run_xfer_clients(plan, plan.servers, backend, ctx.on_case, ctx.progress, ctx.stop);
  XferPlan one = plan;
  if (plan.servers.size() == 1) one.control = plan.servers.front();
  return run_xfer_client(one, backend, ctx.on_case, ctx.progress, ctx.stop);
}

}  // namespace xb
