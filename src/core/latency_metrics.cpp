#include "core/latency_metrics.hpp"

#include <fmt/format.h>

namespace xb {

std::vector<Metric> latency_metrics(const LatencyHistogram& ns, std::string_view per, std::string_view span) {
  const auto us = [](double v) { return v / 1e3; };
  const auto pct = [&](double q) { return us(static_cast<double>(ns.percentile(q))); };
  const std::string from = fmt::format("per {} ({}), from the log-linear histogram (< 2% error)", per, span);
  return {{"latency_min", us(static_cast<double>(ns.min())), "us", fmt::format("smallest {} latency (exact)", per)},
          {"latency_avg", us(ns.mean()), "us", fmt::format("sum of {0} latencies / {0}s (exact)", per)},
          {"latency_p50", pct(0.50), "us", "p50 " + from},
          {"latency_p90", pct(0.90), "us", "p90 " + from},
          {"latency_p99", pct(0.99), "us", "p99 " + from},
          {"latency_p99.9", pct(0.999), "us", "p99.9 " + from},
          {"latency_max", us(static_cast<double>(ns.max())), "us", fmt::format("largest {} latency (exact)", per)}};
}

}  // namespace xb
