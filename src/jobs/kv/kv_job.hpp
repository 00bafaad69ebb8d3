#pragma once
// The kv job: KV-cache blocks dumped to and loaded from the POSIX block store (storage/kv_store),
// by threads sharing one block list; a plan in, a result out (no formatting here).
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/kv/kv_plan.hpp"

namespace xb {

// Checks every parameter before anything is created or allocated (PlanError naming the field and
// the rule; MachineLimit when the buffers do not fit in memory). For a load, then checks that
// every block is in the store, whole: runtime_error naming the first missing or short block (a
// run failure, not bad input: the store is what it is).
// `backend` is the one a load --to device uses (ignored otherwise).
void validate_kv_plan(const KvPlan& plan, const Backend* backend);

// Runs the plan. Throws on the first failing block (after stopping the other threads), naming the
// block id, its file and how much was done before; a verify mismatch names the block, the file and
// the byte's offset in it.
// ctx.backend: the one a load --to device uses (may be null otherwise). Returns the one case (also
// to ctx.on_case).
std::vector<CaseResult> run(const KvPlan& plan, JobContext& ctx);

}  // namespace xb
