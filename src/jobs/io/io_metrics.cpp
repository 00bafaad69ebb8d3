#include "jobs/io/io_metrics.hpp"

#include "core/latency_metrics.hpp"
#include "jobs/io/io_job.hpp"

namespace xb {

std::vector<Metric> io_case_metrics(const IoTotals& t, const LatencyHistogram& latency_ns) {
  const double wall = static_cast<double>(t.wall_ns) / 1e9;
  const double per_s = wall > 0 ? 1.0 / wall : 0.0;
  const double ops = static_cast<double>(t.ops);
  std::vector<Metric> m = {
      {"throughput", io_throughput_gib_per_s(t.bytes, wall), "GiB/s",
       "bytes moved / wall time, GiB = 2^30 bytes (gdsio's Throughput)"},
      {"iops", ops * per_s, "IO/s", "ops / wall time"},
      {"ops", ops, "IOs", "IOs completed by all threads"},
      {"bytes", static_cast<double>(t.bytes), "B", "bytes moved by all threads"},
      {"wall_time", wall, "s", "first thread's start to last thread's end"},
  };
  for (auto& l : latency_metrics(latency_ns, "IO", "submit to completion")) m.push_back(std::move(l));
  m.push_back({"cpu_user_time", t.cpu_user_s, "s", "process user CPU time during the run (getrusage)"});
  m.push_back({"cpu_sys_time", t.cpu_sys_s, "s", "process system CPU time during the run (getrusage)"});
  const double cpu_pct = per_s * 100.0;
  m.push_back({"cpu_user", t.cpu_user_s * cpu_pct, "%", "process user CPU time (getrusage) / wall time (fio's usr=)"});
  m.push_back({"cpu_sys", t.cpu_sys_s * cpu_pct, "%", "process system CPU time (getrusage) / wall time (fio's sys=)"});
  m.push_back({"cpu_per_io", t.ops ? (t.cpu_user_s + t.cpu_sys_s) * 1e6 / ops : 0.0, "us",
               "(user + system CPU time) / ops"});
  return m;
}

}  // namespace xb
