# p2p job, `xferbench p2p`, `xferbench fleet`, and the ascend-dmi dialect; the MPI runtime (Open MPI,
# Debian's libopenmpi-dev: scripts/setup.sh) that lines up the ranks of a p2p run across nodes.
# The project's language is C++ only: MPI's CXX component, its deprecated C++ bindings left out
# (mpi_runtime.cpp uses the C interface).
set(MPI_CXX_SKIP_MPICXX ON)
find_package(MPI REQUIRED COMPONENTS CXX)
target_sources(xferbench_lib PRIVATE
  jobs/p2p/p2p_plan.cpp jobs/p2p/p2p_metrics.cpp jobs/p2p/p2p_copy.cpp jobs/p2p/p2p_job.cpp
  jobs/p2p/p2p_remote.cpp
  jobs/p2p/p2p_two_nodes.cpp
  runtime/mpi_runtime.cpp
  cli/p2p_command.cpp cli/fleet_command.cpp
  dialects/ascend_dmi.cpp dialects/ascend_dmi_output.cpp dialects/ascend_dmi_command.cpp)
# Only mpi_runtime.cpp sees mpi.h: MPI's include directories and definitions go on that one file,
# so adding MPI recompiles nothing else; the library links MPI for every program.
set_property(SOURCE runtime/mpi_runtime.cpp APPEND PROPERTY INCLUDE_DIRECTORIES ${MPI_CXX_INCLUDE_DIRS})
set_property(SOURCE runtime/mpi_runtime.cpp APPEND PROPERTY COMPILE_DEFINITIONS ${MPI_CXX_COMPILE_DEFINITIONS})
set_property(SOURCE runtime/mpi_runtime.cpp APPEND PROPERTY COMPILE_OPTIONS ${MPI_CXX_COMPILE_OPTIONS})
target_link_libraries(xferbench_lib PUBLIC ${MPI_CXX_LIBRARIES})
