#pragma once
// The kv job's metrics from what a run measured, apart from run_kv so that a test can feed known
// totals and check every figure exactly (a run's own wall and sync times no test can predict).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/histogram.hpp"
#include "core/result.hpp"

namespace xb {

// What all threads of one run did, summed.
struct KvTotals {
  std::uint64_t blocks = 0;   // moved by all threads (blocks x passes)
  std::uint64_t bytes = 0;    // moved by all threads
  std::uint64_t wall_ns = 0;  // first thread's start to the last thread's end, and the end sync
  // A dump's end-of-run syncfs (0 unless --sync end); empty for a load, which has no sync_time.
  std::optional<std::uint64_t> sync_ns;
};

// blocks_per_s, bandwidth (GiB/s), bandwidth_decimal (GB/s), blocks, bytes, wall_time, sync_time
// (a dump only), latency_min ... latency_max (from `latency_ns`, per block, over `latency_span`), in
// that order. Rates are 0 for a zero wall time.
std::vector<Metric> kv_case_metrics(const KvTotals& totals, const LatencyHistogram& latency_ns,
                                    std::string_view latency_span);

}  // namespace xb
