#pragma once
// The io job: threads doing file IO through an engine; a plan in, a result out (the measurement
// core; no formatting here).
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "core/histogram.hpp"
#include "core/result.hpp"
#include "jobs/io/io_plan.hpp"
#include "jobs/job_context.hpp"

namespace xb {

// Checks every parameter before anything is created or allocated: PlanError naming the field and
// the rule (core/plan_error.hpp); MachineLimit when the buffers or the files do not fit, or when
// the transfer type cannot run with `backend` (GPUD without GPU-direct storage); for a read run,
// runtime_error naming a missing or short file and both sizes.
// `backend` is the device backend of cpu_gpu and gpu_direct (unused, and may be null, for cpu).
void validate_io_plan(const IoPlan& plan, const Backend* backend = nullptr);

// Runs the plan (ctx.backend: the device backend of cpu_gpu and gpu_direct; may be null for cpu).
// Returns its one case (also to ctx.on_case). Throws on the first failing IO (after stopping the
// other threads), with the error and how much was done before it; a verify mismatch names the file
// and the byte's offset.
std::vector<CaseResult> run(const IoPlan& plan, JobContext& ctx);

// gdsio's Throughput and the job's `throughput` metric: bytes / seconds in GiB/s (2^30 B/s).
double io_throughput_gib_per_s(std::uint64_t bytes, double seconds);


}  // namespace xb
