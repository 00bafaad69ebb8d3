# link job, `xferbench link`, and the sharp_coll_test dialect; the endpoint memory every transfer
# job (xfer, link, p2p) moves data between.
target_sources(xferbench_lib PRIVATE
  jobs/endpoint/endpoint_memory.cpp jobs/endpoint/device_path.cpp jobs/endpoint/put_source.cpp
  jobs/link/link_plan.cpp jobs/link/link_check.cpp jobs/link/link_server.cpp jobs/link/link_job.cpp
  cli/link_command.cpp
  dialects/sharp_coll_test.cpp dialects/sharp_coll_test_command.cpp)
