// The latency histogram: layout, exact figures, percentiles of known distributions within the
// stated relative error, merge.
#include "core/histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace xb {
namespace {

// The nearest-rank percentile of the raw values: what the histogram approximates.
std::uint64_t exact_percentile(std::vector<std::uint64_t> v, double q) {
  std::sort(v.begin(), v.end());
  const auto rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))));
  return v[rank - 1];
}

void expect_within_error(const LatencyHistogram& h, const std::vector<std::uint64_t>& values) {
  for (double q : {0.0, 0.01, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0}) {
    const double want = static_cast<double>(exact_percentile(values, q));
    const double got = static_cast<double>(h.percentile(q));
    // The layout's own bound (1/128), tighter than the 2% promised to users: a read-back from a
    // bucket's edge instead of its middle stays within 2% and breaks this.
    EXPECT_LE(std::abs(got - want), want * LatencyHistogram::kBucketReadError) << "q=" << q << " want " << want;
  }
}

TEST(Histogram, EmptyIsAllZero) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.percentile(0.5), 0u);
}

TEST(Histogram, BucketsCoverEveryValueWithBoundedWidth) {
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> values = {0, 1, 63, 64, 65, 127, 128, 1000, 4095, 4096, UINT64_MAX, UINT64_MAX - 1};
  for (int i = 0; i < 10000; ++i) values.push_back(rng() >> (rng() % 64));
  for (std::uint64_t v : values) {
    const std::size_t b = LatencyHistogram::bucket_of(v);
    ASSERT_LT(b, LatencyHistogram::kBuckets) << v;
    const std::uint64_t low = LatencyHistogram::bucket_low(b);
    const std::uint64_t width = LatencyHistogram::bucket_width(b);
    EXPECT_LE(low, v);
    EXPECT_LE(v - low, width - 1) << v;  // v < low + width, without overflowing at the top
    if (low >= 64) {
      EXPECT_LE(width * 64, low) << v;  // at most 1/64 of the bucket's values: the error bound
    }
  }
  // Buckets are contiguous: each starts where the previous one ends.
  for (std::size_t b = 1; b < LatencyHistogram::kBuckets; ++b) {
    EXPECT_EQ(LatencyHistogram::bucket_low(b), LatencyHistogram::bucket_low(b - 1) + LatencyHistogram::bucket_width(b - 1));
  }
}

TEST(Histogram, EveryBucketReadsBackWithinOneHundredTwentyEighthOfItsEdges) {
  // For buckets of every magnitude, the median of {1, v, max} is v's bucket read back: for v at
  // the bucket's low edge and at its top, the reading is within v/128 (the middle of the bucket).
  for (unsigned shift = 1; shift < 57; ++shift) {
    for (const std::uint64_t sub : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{63}}) {
      const std::size_t b = LatencyHistogram::bucket_of((LatencyHistogram::kSubBuckets + sub) << shift);
      const std::uint64_t low = LatencyHistogram::bucket_low(b);
      const std::uint64_t top = low + LatencyHistogram::bucket_width(b) - 1;
      for (const std::uint64_t v : {low, top}) {
        LatencyHistogram h;
        h.record(1);
        h.record(v);
        h.record(UINT64_MAX);
        const auto got = static_cast<double>(h.percentile(0.5));
        const auto want = static_cast<double>(v);
        EXPECT_LE(std::abs(got - want), want * LatencyHistogram::kBucketReadError)
            << "value " << v << " (bucket " << b << ", [" << low << ", " << top << "]) read back as " << got;
      }
    }
  }
}

TEST(Histogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (std::uint64_t v = 1; v <= 50; ++v) h.record(v);
  EXPECT_EQ(h.percentile(0.5), 25u);
  EXPECT_EQ(h.percentile(0.9), 45u);
  EXPECT_EQ(h.percentile(1.0), 50u);
  EXPECT_EQ(h.percentile(0.0), 1u);
}

TEST(Histogram, CountMinMaxMeanStddevAreExact) {
  LatencyHistogram h;
  for (std::uint64_t v : {1000u, 2000u, 3000u, 4000u, 123457u}) h.record(v);
  EXPECT_EQ(h.count(), 5u);
  EXPECT_EQ(h.min(), 1000u);
  EXPECT_EQ(h.max(), 123457u);
  EXPECT_DOUBLE_EQ(h.mean(), (1000.0 + 2000 + 3000 + 4000 + 123457) / 5);
  LatencyHistogram c;
  for (int i = 0; i < 4; ++i) c.record(7);
  EXPECT_DOUBLE_EQ(c.stddev(), 0.0);
  LatencyHistogram two;
  two.record(100);
  two.record(300);
  EXPECT_NEAR(two.stddev(), 100.0, 1e-9);
}

TEST(Histogram, UniformPercentilesWithinError) {
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<std::uint64_t> dist(1, 10'000'000);  // 1 ns .. 10 ms
  LatencyHistogram h;
  std::vector<std::uint64_t> values;
  for (int i = 0; i < 200000; ++i) {
    values.push_back(dist(rng));
    h.record(values.back());
  }
  expect_within_error(h, values);
  EXPECT_NEAR(static_cast<double>(h.percentile(0.5)), 5e6, 5e6 * 0.03);  // and near the true median
}

TEST(Histogram, ExponentialAndLogNormalPercentilesWithinError) {
  std::mt19937_64 rng(3);
  std::exponential_distribution<double> expo(1.0 / 80'000.0);  // mean 80 us
  std::lognormal_distribution<double> lognormal(std::log(20'000.0), 1.5);  // a long tail
  LatencyHistogram he, hl;
  std::vector<std::uint64_t> ve, vl;
  for (int i = 0; i < 100000; ++i) {
    ve.push_back(static_cast<std::uint64_t>(expo(rng)) + 1);
    he.record(ve.back());
    vl.push_back(static_cast<std::uint64_t>(lognormal(rng)) + 1);
    hl.record(vl.back());
  }
  expect_within_error(he, ve);
  expect_within_error(hl, vl);
}

TEST(Histogram, HoursAreWithinError) {
  LatencyHistogram h;
  std::vector<std::uint64_t> values;
  for (std::uint64_t s = 1; s <= 5 * 3600; s += 7) {  // 1 s .. 5 h in ns
    values.push_back(s * 1'000'000'000ull + 12345);
    h.record(values.back());
  }
  expect_within_error(h, values);
}

TEST(Histogram, MergeEqualsRecordingEverythingInOne) {
  std::mt19937_64 rng(4);
  LatencyHistogram a, b, all;
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t v = rng() % 1'000'000;
    (i % 3 ? a : b).record(v);
    all.record(v);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_NEAR(a.mean(), all.mean(), 1e-6);
  for (double q : {0.1, 0.5, 0.9, 0.99, 0.999}) EXPECT_EQ(a.percentile(q), all.percentile(q));
  LatencyHistogram empty;
  a.merge(empty);  // merging an empty histogram changes nothing, min included
  EXPECT_EQ(a.min(), all.min());
}

}  // namespace
}  // namespace xb
