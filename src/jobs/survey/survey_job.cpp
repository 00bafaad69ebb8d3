#include "jobs/survey/survey_job.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "jobs/survey/survey_steps.hpp"

namespace xb {

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

Survey::Survey(const SurveyPlan& plan, BackendRegistry& registry)
    : state_(std::make_unique<SurveyState>(plan, registry)) {
  add_copy_steps(*state_, steps_);
  add_storage_steps(*state_, steps_);
  add_transfer_steps(*state_, steps_);
}

Survey::~Survey() = default;

std::size_t Survey::size() const { return steps_.size(); }

const std::string& Survey::title(std::size_t i) const { return steps_.at(i).title; }

std::vector<CaseResult> Survey::run(std::size_t i) {
  const SurveyStep& step = steps_.at(i);
  // Not measurable here (no device, no UCX, a plan larger than this machine): a waived row. Any
  // other error: a failed row with the error, and the survey goes on with the next path.
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

}  // namespace xb
