#pragma once
// The survey: every backend, device, storage location and transport this machine has, each data
// path measured briefly by the job that owns it (copy, io, link, p2p) through its C++ entry point.
// A plan in, annotated cases out (survey_row.hpp); no formatting here.
//
// Each step that cannot run here gives a waived case saying why, one that fails a failed case with
// the error: neither stops the survey.
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/survey/survey_plan.hpp"

namespace xb {

// Finds what there is to measure (every backend of ctx.registry, storage, transports), lays out the
// steps and runs them in order (storage reads use the file the write step made), each under a
// progress step "survey: [3/9] storage randread 4K…". Makes the storage directory (a temporary
// one, removed before returning, unless plan.directory is set); a directory that cannot be made
// turns the storage steps into waived rows, it does not throw. Returns every case, annotated with
// its survey row, each also to ctx.on_case as its step ends; throws only for programming errors.
std::vector<CaseResult> run(const SurveyPlan& plan, JobContext& ctx);

}  // namespace xb
