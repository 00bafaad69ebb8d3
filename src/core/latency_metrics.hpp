#pragma once
// A latency histogram's figures as result metrics, in microseconds: min, avg, p50, p90, p99,
// p99.9, max. One function, so every job states its latencies the same way.
#include <string_view>
#include <vector>

#include "core/histogram.hpp"
#include "core/result.hpp"

namespace xb {

// `ns`: latencies in nanoseconds. `per`: what one sample is ("IO", "block"). `span`: what a sample
// measures ("submit to completion"), written into each formula.
std::vector<Metric> latency_metrics(const LatencyHistogram& ns, std::string_view per, std::string_view span);

}  // namespace xb
