#include "jobs/survey/survey_job.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/stop.hpp"
#include "jobs/survey/survey_steps.hpp"

namespace xb {
namespace {

// A case of the step's job saying its path was not measured (waived) or failed, with the reason.
CaseResult survey_status_case(const SurveyStep& step, CaseStatus status, const std::string& reason) {
  CaseResult c;
  c.job = step.job;
  c.name = step.case_name;
  c.title = step.title;
  c.status = status;
  c.status_reason = reason;
  c.labels = {{"path", step.row.path}};
  SurveyRow row = step.row;
  row.metric.clear();
  annotate_survey_row(c, row);
  return c;
}

// One step's cases. Not measurable here (no device, no UCX, a plan larger than this machine): a
// waived row. Any other error: a failed row with the error, and the survey goes on with the next.
std::vector<CaseResult> run_step(const SurveyStep& step) {
  try {
    return step.run();
  } catch (const Unavailable& e) {
    return {survey_status_case(step, CaseStatus::waived, e.what())};
  } catch (const UsageError& e) {
    return {survey_status_case(step, CaseStatus::waived, e.what())};
  } catch (const std::exception& e) {
    return {survey_status_case(step, CaseStatus::failed, e.what())};
  }
}

}  // namespace

std::vector<CaseResult> run(const SurveyPlan& plan, JobContext& ctx) {
  SurveyState state(plan, ctx.need_registry("survey"));  // its temporary storage directory goes when this returns
  std::vector<SurveyStep> steps;
  add_copy_steps(state, steps);
  add_storage_steps(state, steps);
  add_transfer_steps(state, steps);
  std::vector<CaseResult> cases;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    stop_here_if_asked(ctx.stop);  // between steps: each step is short
    const ProgressStep shown(ctx.progress, fmt::format("survey: [{}/{}] {}…", i + 1, steps.size(), steps[i].title));
    for (CaseResult& c : run_step(steps[i])) {
      ctx.emit(c);
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace xb
