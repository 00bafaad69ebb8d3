#pragma once
// Inside the survey (not for other code): a step, the state steps share, and the functions laying out
// each area's steps, one file each (survey_copy_steps, survey_storage_steps, survey_transfer_steps).
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "core/result.hpp"
#include "core/survey_row.hpp"
#include "storage/storage_inventory.hpp"
#include "jobs/survey/survey_plan.hpp"
#include "jobs/survey/survey_scratch.hpp"

namespace xb {

struct SurveyStep {
  std::string title;      // progress text: "storage randread 4K"
  std::string job;        // the job that measures it: a waived or failed case carries its name
  std::string case_name;  // a stable name for a waived or failed case of this step
  SurveyRow row;          // the row such a case shows
  // Runs the job and returns its cases, annotated. Throws Unavailable (or UsageError for a plan
  // this machine cannot hold) when the path cannot be measured here, anything else when it failed.
  std::function<std::vector<CaseResult>()> run;
};

struct SurveyState {
  SurveyState(SurveyPlan p, BackendRegistry& r) : plan(std::move(p)), registry(r) {}
  SurveyPlan plan;
  BackendRegistry& registry;
  // Storage: the directory (the scratch one, or --dir's), or why there is none.
  std::optional<SurveyScratch> scratch;
  std::filesystem::path storage_dir;
  std::string storage_unavailable;  // non-empty: why the storage steps cannot run
  std::optional<StorageInfo> storage;
  std::string io_engine;       // the engine the write step used (io_uring, else libaio, else psync)
  bool file_written = false;   // the write step made the file the read steps read
};

void add_copy_steps(SurveyState& state, std::vector<SurveyStep>& steps);
void add_storage_steps(SurveyState& state, std::vector<SurveyStep>& steps);
void add_transfer_steps(SurveyState& state, std::vector<SurveyStep>& steps);

}  // namespace xb
