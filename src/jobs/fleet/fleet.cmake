# The fleet job (`xferbench fleet`, whose command is listed with p2p's in p2p.cmake): the round-robin
# schedule, the verdict on slow links, the cases built from the measured figures, and the job over the
# p2p job's MPI group and peer server.
target_sources(xferbench_lib PRIVATE
  jobs/fleet/fleet_schedule.cpp jobs/fleet/fleet_verdict.cpp jobs/fleet/fleet_diagnosis.cpp jobs/fleet/fleet_cases.cpp jobs/fleet/fleet_job.cpp
  cli/transport_flags.cpp)
