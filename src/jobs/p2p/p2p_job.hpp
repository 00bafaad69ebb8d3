#pragma once
// The p2p job within one node: a plan in, cases out (no formatting here). A case per measured pair
// and direction kind ("p2p_unidirectional", "p2p_bidirectional"); an all-pairs plan adds a matrix case
// per kind ("p2p_matrix_unidirectional", …), config["matrix"] rows source, columns destination.
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/p2p/p2p_metrics.hpp"
#include "jobs/p2p/p2p_plan.hpp"

namespace xb {

// Runs a plan validate_p2p_plan accepted on ctx.backend. Devices that cannot reach each other give
// a waived case (and a null matrix cell); a copy or verification error throws, naming the pair.
// ctx.on_case sees each pair's case as it completes (the ascend-dmi dialect prints it then).
std::vector<CaseResult> run(const P2pPlan& plan, JobContext& ctx);

// The case of one measured pair (also built by the MPI runtime from gathered figures).
// `from`/`to`: where the source and destination are ("cpu::device::0", "rank 1 cpu::device::0").
CaseResult make_p2p_case(const P2pPlan& plan, const std::string& backend, const std::string& from,
                         const std::string& to, bool bidirectional, const ElapsedRecord& elapsed);
CaseResult make_p2p_waived_case(const P2pPlan& plan, const std::string& from, const std::string& to,
                                bool bidirectional, const std::string& reason);

// "cpu::device::3": how a device is named in labels.
std::string p2p_device_name(std::string_view backend, int index);

}  // namespace xb
