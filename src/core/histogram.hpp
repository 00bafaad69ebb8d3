#pragma once
// A log-linear latency histogram (HdrHistogram's layout, fixed precision): values below 64 have a
// bucket each; every power of two above, [2^k, 2^(k+1)), is split into 64 equal sub-buckets. A
// bucket is then at most 1/64 of its lower bound wide, and a value read back from the middle of its
// bucket is within 1/128 (0.8%) of the recorded one: well under the 2% we promise. The whole
// uint64_t range (1 ns to centuries) fits in 3,776 counters (30 KiB), so per-IO latencies are
// recorded in O(1) with no allocation and never kept in a sorted vector. One histogram per thread,
// merged at the end: no locks, no atomics.
#include <array>
#include <cstdint>

namespace xb {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = 6;                    // 64 sub-buckets per power of two
  static constexpr std::uint64_t kSubBuckets = 1u << kSubBucketBits;
  static constexpr std::size_t kBuckets = kSubBuckets + (64 - kSubBucketBits) * kSubBuckets;
  // The promised bound on |reported - true| / true for any percentile, min and max excepted
  // (those are exact).
  static constexpr double kRelativeError = 0.02;
  // What the layout itself guarantees, and the tests hold it to: a bucket at most 1/64 of its low
  // edge wide, read back at its middle, is within half of that of any value in it.
  static constexpr double kBucketReadError = 1.0 / 128;

  void record(std::uint64_t value) noexcept;
  void merge(const LatencyHistogram& other) noexcept;

  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t min() const noexcept { return count_ ? min_ : 0; }  // exact
  std::uint64_t max() const noexcept { return max_; }                // exact
  double mean() const noexcept;                                       // exact (from the running sum)
  double stddev() const noexcept;                                     // population, exact
  // The value at quantile q (0..1) by the nearest-rank method: the smallest recorded value v such
  // that at least q of all values are <= v, read back as the middle of its bucket clamped to
  // [min, max]. 0 when empty.
  std::uint64_t percentile(double q) const noexcept;

  // The bucket layout, exposed for tests.
  static std::size_t bucket_of(std::uint64_t value) noexcept;
  static std::uint64_t bucket_low(std::size_t bucket) noexcept;
  static std::uint64_t bucket_width(std::size_t bucket) noexcept;

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t count_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
  // Sums in double: exact enough for a mean (53 bits), and a sum of squares of ns would overflow
  // 64-bit integers after a few seconds' worth of latencies.
  double sum_ = 0;
  double sum_squares_ = 0;
};

}  // namespace xb
