# coll job: collectives of a group of ranks over a size sweep (the sharp_coll_test dialect's
# collective mode). The MPI communicators that run them are in the MPI runtime module
# (runtime/mpi/mpi.cmake).
target_sources(xferbench_lib PRIVATE
  jobs/coll/coll_plan.cpp jobs/coll/coll_job.cpp
  runtime/collectives.cpp)
