#pragma once
// What each thread of a file job (io, kv) counts while it runs, and the team's sum: the latency of
// each operation, the bytes and operations done, when it started and ended, and its error.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "core/histogram.hpp"

namespace xb {

struct WorkerTally {
  LatencyHistogram latency;  // ns per operation
  std::uint64_t bytes = 0, ops = 0, start_ns = 0, end_ns = 0;
  std::exception_ptr error;
};

struct TeamTally {
  LatencyHistogram latency;
  std::uint64_t bytes = 0, ops = 0;
  std::uint64_t first_start_ns = UINT64_MAX, last_end_ns = 0;
  std::exception_ptr error;  // the first worker's by index, if any failed

  std::uint64_t wall_ns() const { return last_end_ns - first_start_ns; }
};

template <class Worker>
TeamTally sum_tallies(const std::vector<std::unique_ptr<Worker>>& workers) {
  TeamTally t;
  for (const auto& w : workers) {
    const WorkerTally& own = *w;
    t.latency.merge(own.latency);
    t.bytes += own.bytes;
    t.ops += own.ops;
    t.first_start_ns = std::min(t.first_start_ns, own.start_ns);
    t.last_end_ns = std::max(t.last_end_ns, own.end_ns);
    if (own.error && !t.error) t.error = own.error;
  }
  return t;
}

}  // namespace xb
