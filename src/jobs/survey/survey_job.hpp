#pragma once
// The survey: every backend, device, storage location and transport this machine has, each path
// measured briefly by the job that owns it (copy, io, link, p2p); a plan in, annotated cases out
// (survey_row.hpp). A step that cannot run here gives a waived case saying why, one that fails a
// failed case with the error: neither stops the survey.
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/survey/survey_plan.hpp"

namespace xb {

// Finds what there is to measure (ctx.registry's backends, storage, transports) and runs the steps
// in order (storage reads use the write step's file), each under a progress step "survey: [3/9]
// storage randread 4K…". A storage directory that cannot be made waives the storage rows. Returns
// every case, annotated, each also to ctx.on_case as its step ends; throws only for programming errors.
std::vector<CaseResult> run(const SurveyPlan& plan, JobContext& ctx);

}  // namespace xb
