#pragma once
// The io job: threads doing file IO through an engine; a plan in, a result out (no formatting here).
#include <cstdint>
#include <vector>

#include "backends/device.hpp"
#include "core/result.hpp"
#include "jobs/io/io_plan.hpp"
#include "jobs/job_context.hpp"

namespace xb {

// Checks every parameter before anything is made: PlanError naming the field and the rule;
// MachineLimit when the buffers or files do not fit or the transfer type cannot run with `backend`
// (the device types' backend; may be null for cpu); for a read run, runtime_error naming a missing
// or short file and both sizes.
void validate_io_plan(const IoPlan& plan, const Backend* backend = nullptr);

// Runs the plan (ctx.backend as above) and returns its one case (also to ctx.on_case). Throws on the
// first failing IO, after stopping the other threads, with the error and how much was done before;
// a verify mismatch names the file and the byte's offset.
std::vector<CaseResult> run(const IoPlan& plan, JobContext& ctx);

// gdsio's Throughput and the job's `throughput` metric: bytes / seconds in GiB/s (2^30 B/s).
double io_throughput_gib_per_s(std::uint64_t bytes, double seconds);

}  // namespace xb
