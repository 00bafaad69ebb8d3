#include "core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace xb {

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Summary summarize(std::span<const double> samples) {
  Summary s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  double sum = 0;
  for (double v : sorted) sum += v;
  s.avg = sum / static_cast<double>(sorted.size());
  double sq = 0;
  for (double v : sorted) sq += (v - s.avg) * (v - s.avg);
  // Population standard deviation: the samples are the whole run, not a draw from a larger one.
  s.stddev = std::sqrt(sq / static_cast<double>(sorted.size()));
  s.p50 = quantile_sorted(sorted, 0.50);
  s.p90 = quantile_sorted(sorted, 0.90);
  s.p99 = quantile_sorted(sorted, 0.99);
  return s;
}

}  // namespace xb
