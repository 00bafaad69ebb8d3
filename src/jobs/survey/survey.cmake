# `xferbench survey` (also `xferbench` with no arguments): the survey job, the summary table and
# terminal progress.
target_sources(xferbench_lib PRIVATE
  cli/survey_command.cpp cli/progress.cpp
  jobs/survey/survey_plan.cpp jobs/survey/survey_scratch.cpp jobs/survey/survey_job.cpp
  jobs/survey/survey_copy_steps.cpp jobs/survey/survey_storage_steps.cpp jobs/survey/survey_transfer_steps.cpp
  report/survey_table.cpp)
