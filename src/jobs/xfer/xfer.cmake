# xfer job, `xferbench xfer`, and the HIXL dialect.
target_sources(xferbench_lib PRIVATE
  jobs/xfer/xfer_plan.cpp jobs/xfer/xfer_config.cpp jobs/xfer/xfer_metrics.cpp jobs/xfer/xfer_direct_mover.cpp jobs/xfer/xfer_pool_mover.cpp
  jobs/xfer/xfer_client.cpp jobs/xfer/xfer_server.cpp jobs/xfer/xfer_fan_out.cpp jobs/xfer/xfer_job.cpp
  cli/xfer_command.cpp dialects/hixl.cpp dialects/hixl_command.cpp
  dialects/hixl_comm_bench.cpp dialects/hixl_comm_bench_command.cpp)
