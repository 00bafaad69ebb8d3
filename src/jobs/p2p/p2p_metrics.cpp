#include "jobs/p2p/p2p_metrics.hpp"

#include <cmath>

#include "core/latency_metrics.hpp"

namespace xb {

void ElapsedRecord::add(double us) {
  histogram_.record(static_cast<std::uint64_t>(std::llround(std::max(us, 0.0) * 1e3)));
  sum_us_ += us;
  if (count() <= kP2pMaxSeriesSamples) {
    samples_.push_back(us);
  } else if (!samples_.empty()) {
    samples_ = {};  // past the limit: keep none rather than a misleading prefix
  }
}

double p2p_bandwidth_gbps(double bytes_per_execution, double elapsed_us) {
  return elapsed_us > 0 ? bytes_per_execution / elapsed_us / 1e3 : 0.0;
}

double p2p_bytes_per_execution(std::uint64_t size, bool bidirectional) {
  return static_cast<double>(size) * (bidirectional ? 2.0 : 1.0);
}

std::vector<Metric> p2p_metrics(const ElapsedRecord& elapsed, std::uint64_t size, bool bidirectional) {
  const double bytes = p2p_bytes_per_execution(size, bidirectional);
  const double avg = elapsed.avg_us();
  const std::string moved = bidirectional ? "2 * size (both directions at once)" : "size";
  std::vector<Metric> m{
      {"bandwidth", p2p_bandwidth_gbps(bytes, avg), "GB/s",
       moved + " / elapsed_avg, GB = 10^9 bytes (ascend-dmi's Bandwidth(GB/s))"},
      {"bandwidth_gib", avg > 0 ? bytes / (avg / 1e6) / 1073741824.0 : 0.0, "GiB/s",
       moved + " / elapsed_avg, GiB = 2^30 bytes"},
  };
  // The histogram's latency figures, named for what they are here: elapsed time per execution.
  for (Metric x : latency_metrics(elapsed.histogram_ns(), "execution", "first copy queued to last copy done")) {
    x.name.replace(0, std::string("latency").size(), "elapsed");
    if (x.name == "elapsed_avg") {
      x.value = avg;
      x.formula = "sum of execution times / executions (exact)";
    }
    m.push_back(std::move(x));
  }
  m.push_back({"executions", static_cast<double>(elapsed.count()), "executions", "timed executions"});
  return m;
}

std::vector<Series> p2p_series(const ElapsedRecord& elapsed) {
  if (!elapsed.kept_samples()) return {};
  return {make_series("elapsed", "us", elapsed.samples_us())};
}

}  // namespace xb
