#pragma once
// Statistics over samples: min, max, avg, p50, p90, p99, stddev.
// Percentiles interpolate linearly between the two nearest ranks (the "linear" method of numpy and
// of nvbandwidth's reporters), so p50 of {1, 2} is 1.5.
#include <cstddef>
#include <span>

namespace xb {

struct Summary {
  std::size_t count = 0;
  double min = 0, max = 0, avg = 0, p50 = 0, p90 = 0, p99 = 0, stddev = 0;
};

Summary summarize(std::span<const double> samples);

// The q-quantile (0..1) of already sorted samples, interpolated.
double quantile_sorted(std::span<const double> sorted, double q);

}  // namespace xb
