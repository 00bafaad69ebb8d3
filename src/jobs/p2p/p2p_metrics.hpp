#pragma once
// The p2p figures, written down once (the job, the MPI runtime and the golden tests use them):
// per-execution elapsed times and the bandwidth of one execution, in decimal GB/s as ascend-dmi's
// Bandwidth(GB/s): bytes moved per execution / elapsed, where a bidirectional execution moves
// `size` each way (2 x size). 536870912 B / 3266.90 us = 164.34 GB/s.
#include <cstdint>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "core/result.hpp"

namespace xb {

// Executions past this many keep no per-execution series (the JSON would hold 100 million numbers);
// their figures come from the histogram and the exact sum.
inline constexpr std::uint64_t kP2pMaxSeriesSamples = 100'000;

// Elapsed time of every timed execution of one case.
class ElapsedRecord {
 public:
  // `timing`: how the times were taken ("device events, gated", "host clock: …"), for results.
  explicit ElapsedRecord(std::string timing = {}) : timing_(std::move(timing)) {}
  void add(double us);
  const std::string& timing() const { return timing_; }
  std::uint64_t count() const { return histogram_.count(); }
  double avg_us() const { return count() ? sum_us_ / static_cast<double>(count()) : 0; }
  const LatencyHistogram& histogram_ns() const { return histogram_; }
  const std::vector<double>& samples_us() const { return samples_; }  // empty past kP2pMaxSeriesSamples
  bool kept_samples() const { return count() <= kP2pMaxSeriesSamples; }

 private:
  LatencyHistogram histogram_;
  double sum_us_ = 0;  // exact average (the histogram's sum is of whole nanoseconds)
  std::vector<double> samples_;
  std::string timing_;
};

// Decimal GB/s of `bytes_per_execution` moved in `elapsed_us`.
double p2p_bandwidth_gbps(double bytes_per_execution, double elapsed_us);

// Bytes one execution moves: `size` per direction, both directions counted when bidirectional.
double p2p_bytes_per_execution(std::uint64_t size, bool bidirectional);

// The metrics of one case: bandwidth (GB/s), bandwidth_gib (GiB/s), elapsed_* (us), executions.
std::vector<Metric> p2p_metrics(const ElapsedRecord& elapsed, std::uint64_t size, bool bidirectional);

// The series of one case: "elapsed" (us per execution), when the samples were kept.
std::vector<Series> p2p_series(const ElapsedRecord& elapsed);

}  // namespace xb
