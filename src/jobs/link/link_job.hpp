#pragma once
// The link job: one link swept over message sizes. This side's memory (src) is put into the peer's
// (dst) one transfer at a time, each a put and a flush that returns once the data is visible at the
// peer; per size, warm-ups first. One CaseResult per size (`xferbench link` and the sharp_coll_test
// dialect render them).
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/link/link_plan.hpp"

namespace xb {

// Runs the plan against plan.peer, or a loopback server thread of this process when it has none,
// with ctx.backend's memory; ctx.on_case sees each size's result once measured. Throws TransportError
// when the peer fails or is not there, std::runtime_error naming the size and offset when --check
// finds a difference.
std::vector<CaseResult> run(const LinkPlan& plan, JobContext& ctx);

}  // namespace xb
