# p2p job, `xferbench p2p`, `xferbench fleet`, and the ascend-dmi dialect. Their MPI runs reach MPI
# through the runtime module (runtime/mpi/mpi.cmake, opened by runtime/mpi_library.cpp).
target_sources(xferbench_lib PRIVATE
  jobs/p2p/p2p_plan.cpp jobs/p2p/p2p_metrics.cpp jobs/p2p/p2p_copy.cpp jobs/p2p/p2p_job.cpp
  jobs/p2p/p2p_remote.cpp
  jobs/p2p/p2p_two_nodes.cpp
  runtime/mpi_library.cpp
  cli/p2p_command.cpp cli/fleet_command.cpp cli/two_node_runtime.cpp
  dialects/ascend_dmi.cpp dialects/ascend_dmi_output.cpp dialects/ascend_dmi_command.cpp)
