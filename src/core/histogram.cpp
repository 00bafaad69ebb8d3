#include "core/histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace xb {

std::size_t LatencyHistogram::bucket_of(std::uint64_t value) noexcept {
  if (value < kSubBuckets) return static_cast<std::size_t>(value);
  const unsigned msb = 63u - static_cast<unsigned>(std::countl_zero(value));  // >= kSubBucketBits
  const unsigned shift = msb - kSubBucketBits;
  // (value >> shift) is in [64, 128): its low 6 bits pick the sub-bucket within the power of two.
  return kSubBuckets + shift * kSubBuckets + static_cast<std::size_t>((value >> shift) - kSubBuckets);
}

std::uint64_t LatencyHistogram::bucket_low(std::size_t bucket) noexcept {
  if (bucket < kSubBuckets) return bucket;
  const std::size_t shift = (bucket - kSubBuckets) / kSubBuckets;
  const std::uint64_t sub = (bucket - kSubBuckets) % kSubBuckets;
  return (kSubBuckets + sub) << shift;
}

std::uint64_t LatencyHistogram::bucket_width(std::size_t bucket) noexcept {
  if (bucket < kSubBuckets) return 1;
  return std::uint64_t{1} << ((bucket - kSubBuckets) / kSubBuckets);
}

void LatencyHistogram::record(std::uint64_t value) noexcept {
  ++counts_[bucket_of(value)];
  ++count_;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
  const double v = static_cast<double>(value);
  sum_ += v;
  sum_squares_ += v * v;
}

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept {
  for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
  sum_squares_ += other.sum_squares_;
}

double LatencyHistogram::mean() const noexcept { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }

double LatencyHistogram::stddev() const noexcept {
  if (count_ == 0) return 0.0;
  const double m = mean();
  const double variance = sum_squares_ / static_cast<double>(count_) - m * m;
  return variance > 0 ? std::sqrt(variance) : 0.0;  // rounding can make a tiny variance negative
}

std::uint64_t LatencyHistogram::percentile(double q) const noexcept {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // Nearest rank: the ceil(q * n)-th smallest value, at least the first.
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < kBuckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) {
      const std::uint64_t middle = bucket_low(b) + (bucket_width(b) - 1) / 2;
      return std::clamp(middle, min(), max_);
    }
  }
  return max_;
}

}  // namespace xb
