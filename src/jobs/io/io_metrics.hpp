#pragma once
// The io job's metrics from what a run measured, apart from run_io so that a test can feed known
// totals and check every figure exactly (a run's own wall and CPU times no test can predict).
#include <cstdint>
#include <vector>

#include "core/histogram.hpp"
#include "core/result.hpp"

namespace xb {

// What all threads of one run did, summed.
struct IoTotals {
  std::uint64_t bytes = 0;    // moved by all threads
  std::uint64_t ops = 0;      // IOs completed by all threads
  std::uint64_t wall_ns = 0;  // first thread's start to last thread's end
  double cpu_user_s = 0;      // process user CPU time over the run (getrusage delta)
  double cpu_sys_s = 0;       // process system CPU time over the run
};

// throughput, iops, ops, bytes, wall_time, latency_min ... latency_max (from `latency_ns`, per IO,
// submit to completion), cpu_user_time, cpu_sys_time, cpu_user, cpu_sys, cpu_per_io, in that order.
// Rates and percentages are 0 for a zero wall time, cpu_per_io 0 without IOs.
std::vector<Metric> io_case_metrics(const IoTotals& totals, const LatencyHistogram& latency_ns);

}  // namespace xb
