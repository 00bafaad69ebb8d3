#include "jobs/kv/kv_metrics.hpp"

#include "core/latency_metrics.hpp"

namespace xb {

std::vector<Metric> kv_case_metrics(const KvTotals& t, const LatencyHistogram& latency_ns,
                                    std::string_view latency_span) {
  const double wall = static_cast<double>(t.wall_ns) / 1e9;
  const double per_s = wall > 0 ? 1.0 / wall : 0.0;
  const double bytes = static_cast<double>(t.bytes);
  std::vector<Metric> m = {
      {"blocks_per_s", static_cast<double>(t.blocks) * per_s, "blocks/s", "blocks / wall time"},
      {"bandwidth", bytes * per_s / 1073741824.0, "GiB/s", "block_bytes * blocks / wall time, GiB = 2^30 bytes"},
      {"bandwidth_decimal", bytes * per_s / 1e9, "GB/s", "block_bytes * blocks / wall time, GB = 10^9 bytes"},
      {"blocks", static_cast<double>(t.blocks), "blocks", "blocks moved by all threads (blocks x passes)"},
      {"bytes", bytes, "B", "bytes moved by all threads"},
      {"wall_time", wall, "s", "first thread's start to the last thread's end (and the end sync, if any)"},
  };
  if (t.sync_ns) m.push_back({"sync_time", static_cast<double>(*t.sync_ns) / 1e9, "s", "the end-of-run syncfs (--sync end)"});
  for (auto& l : latency_metrics(latency_ns, "block", latency_span)) m.push_back(std::move(l));
  return m;
}

}  // namespace xb
