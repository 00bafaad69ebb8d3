#pragma once
// The link job: one link swept over message sizes. This side's memory (src) is put into the
// peer's (dst) one transfer at a time, each a put followed by a flush that returns once the data is
// visible at the peer; per size, warm-ups first, then the timed transfers. A plan in, one
// CaseResult per size out (no formatting here: `xferbench link` renders them, the sharp_coll_test
// dialect prints its table).
#include <functional>
#include <iosfwd>
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/link/link_plan.hpp"

namespace xb {

// Runs the plan against plan.peer, or a loopback server thread of this process when it has none.
// ctx.backend provides the device memory of "cuda" and the pinned host memory; ctx.on_case sees
// each size's result as soon as it is measured. Throws TransportError when the peer fails or is not
// there, std::runtime_error naming the size and offset when --check finds a difference.
std::vector<CaseResult> run(const LinkPlan& plan, JobContext& ctx);

}  // namespace xb
