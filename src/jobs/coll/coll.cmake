# coll job: collectives of a group of ranks over a size sweep (the sharp_coll_test dialect's
# collective mode), and the MPI communicators that run them. Included after p2p.cmake, which finds MPI.
target_sources(xferbench_lib PRIVATE
  jobs/coll/coll_plan.cpp jobs/coll/coll_job.cpp
  runtime/collectives.cpp runtime/mpi_collectives.cpp)
# As mpi_runtime.cpp: only the file that calls MPI sees mpi.h.
set_property(SOURCE runtime/mpi_collectives.cpp APPEND PROPERTY INCLUDE_DIRECTORIES ${MPI_CXX_INCLUDE_DIRS})
set_property(SOURCE runtime/mpi_collectives.cpp APPEND PROPERTY COMPILE_DEFINITIONS ${MPI_CXX_COMPILE_DEFINITIONS})
set_property(SOURCE runtime/mpi_collectives.cpp APPEND PROPERTY COMPILE_OPTIONS ${MPI_CXX_COMPILE_OPTIONS})
