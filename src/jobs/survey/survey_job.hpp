#pragma once
// The survey: every backend, device, storage location and transport this machine has, each data
// path measured briefly by the job that owns it (copy, io, link, p2p) through its C++ entry point.
// A plan in, annotated cases out (survey_row.hpp); no formatting here.
//
// The caller drives the steps one by one (so it can show progress around each); a step that cannot
// run here gives a waived case saying why, one that fails a failed case with the error: neither
// stops the survey.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "core/result.hpp"
#include "jobs/survey/survey_plan.hpp"

namespace xb {

struct SurveyState;
struct SurveyStep;

class Survey {
 public:
  // Finds what there is to measure and lays out the steps. Makes the storage directory (a
  // temporary one unless plan.directory is set); a directory that cannot be made there turns the
  // storage steps into waived rows, it does not throw.
  Survey(const SurveyPlan& plan, BackendRegistry& registry);
  ~Survey();  // removes the temporary storage directory
  Survey(const Survey&) = delete;
  Survey& operator=(const Survey&) = delete;

  std::size_t size() const;
  // What step i does, for progress: "storage randread 4K".
  const std::string& title(std::size_t i) const;
  // Runs step i (in order: storage reads use the file the write step made). Returns its cases, each
  // annotated with its survey row; throws only for programming errors, never for the step's own.
  std::vector<CaseResult> run(std::size_t i);

 private:
  std::unique_ptr<SurveyState> state_;
  std::vector<SurveyStep> steps_;
};

}  // namespace xb
