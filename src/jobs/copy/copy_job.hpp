#pragma once
// The copy job: a plan in, a result out (the measurement core; no formatting here).
#include <cstdint>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "core/result.hpp"
#include "jobs/copy/copy_plan.hpp"
#include "jobs/job_context.hpp"

namespace xb {

// Memory a plan needs in all, host and device side (the cpu backend's device memory is host RAM).
struct CopyMemoryNeed {
  double host_bytes = 0;
  double device_bytes = 0;
};
CopyMemoryNeed copy_memory_need(const CopyPlan& plan);

// Checks every parameter against the rules and the backend before anything is allocated: PlanError
// naming the field (core/plan_error.hpp); MachineLimit when the buffers do not fit in memory.
void validate_copy_plan(const CopyPlan& plan, Backend& backend);

// Runs the plan on ctx.backend (validated against it), a rank per device: forked processes, or with
// plan.devices ranks ctx.launcher's (tests that count or inject ranks). Returns its case (also on_case).
std::vector<CaseResult> run(const CopyPlan& plan, JobContext& ctx);

// The copy job's figures from its measurements: bandwidth = block_bytes * count / copy.avg, in
// GiB/s (dev-sandbox's unit) and in decimal GB/s. One place, so the golden tests use it too.
std::vector<Metric> copy_bandwidth_metrics(std::uint64_t block_bytes, std::uint64_t count, double copy_avg_us);

}  // namespace xb
