# `xferbench survey` (also `xferbench` with no arguments) and `xferbench devices`: the survey job,
# the inventories it and `devices` read (storage, hwloc topology, transports), the summary table,
# and terminal progress.
target_sources(xferbench_lib PRIVATE
  cli/survey_command.cpp cli/progress.cpp
  jobs/survey/survey_plan.cpp jobs/survey/survey_scratch.cpp jobs/survey/survey_job.cpp
  jobs/survey/survey_copy_steps.cpp jobs/survey/survey_storage_steps.cpp jobs/survey/survey_transfer_steps.cpp
  report/survey_table.cpp)
target_sources(xferbench_lib PRIVATE jobs/survey/topology_inventory.cpp jobs/survey/transport_inventory.cpp)
