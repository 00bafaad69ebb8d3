#pragma once
// The kv job: KV-cache blocks dumped to and loaded from the POSIX block store (storage/kv_store),
// by threads sharing one block list; a plan in, a result out (no formatting here).
#include <vector>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/kv/kv_plan.hpp"

namespace xb {

// Checks every parameter before anything is made (PlanError naming the field and the rule;
// MachineLimit when the buffers do not fit); `backend` is a load --to device's (ignored otherwise).
// A load then needs every block whole in the store: runtime_error naming the first missing or short
// one (a run failure, not bad input: the store is what it is).
void validate_kv_plan(const KvPlan& plan, const Backend* backend);

// Runs the plan (ctx.backend as above; may be null otherwise) and returns its one case (also to
// ctx.on_case). Throws on the first failing block, after stopping the other threads, naming the
// block, its file and how much was done before; a verify mismatch also names the byte's offset.
std::vector<CaseResult> run(const KvPlan& plan, JobContext& ctx);

}  // namespace xb
