// Where a thread's IOs go (jobs/io/io_layout.hpp): every byte once per pass for sequential and
// permuted IOs, fixed or drawn sizes; independent offsets on their alignment; the same seed the same
// IOs (gdsio's -k), another seed others; a mixed run's share of reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "jobs/io/io_layout.hpp"

namespace xb {
namespace {

IoPlan plan_of(IoPattern pattern, std::uint64_t io, std::uint64_t min = 0, std::uint64_t step = 0) {
  IoPlan p;
  p.pattern = pattern;
  p.io_bytes = io;
  p.io_min_bytes = min;
  p.io_step_bytes = step;
  return p;
}

std::vector<IoExtent> pass_of(IoLayout& layout, std::uint64_t pass) {
  std::vector<IoExtent> out;
  for (std::uint64_t k = 0; k < layout.ios_per_pass(); ++k) out.push_back(layout.at(pass, k));
  return out;
}

// The extents tile [0, region) exactly: sorted, each starts where the last ended.
void expect_tiles(std::vector<IoExtent> extents, std::uint64_t region) {
  std::sort(extents.begin(), extents.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  std::uint64_t at = 0;
  for (const auto& e : extents) {
    ASSERT_EQ(e.offset, at);
    ASSERT_GT(e.length, 0u);
    at += e.length;
  }
  EXPECT_EQ(at, region);
}

bool same(const std::vector<IoExtent>& a, const std::vector<IoExtent>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.offset == y.offset && x.length == y.length && x.read == y.read;
  });
}

TEST(IoLayout, FixedSizesCoverTheRegionOncePerPassInSequenceOrPermuted) {
  const std::uint64_t region = 1u << 20;
  IoLayout seq(plan_of(IoPattern::read, 4096), region, 1);
  EXPECT_EQ(seq.ios_per_pass(), 256u);
  EXPECT_TRUE(seq.covers_region());
  const auto s = pass_of(seq, 0);
  for (std::size_t k = 0; k < s.size(); ++k) EXPECT_EQ(s[k].offset, k * 4096);
  IoLayout rnd(plan_of(IoPattern::randwrite, 4096), region, 1);
  const auto r0 = pass_of(rnd, 0), r1 = pass_of(rnd, 1);
  expect_tiles(r0, region);
  expect_tiles(r1, region);
  EXPECT_FALSE(same(r0, r1));  // each pass a new permutation
  EXPECT_FALSE(r0[0].read);
}

TEST(IoLayout, DrawnSizesAreInTheRangeOnTheStepAndCoverTheRegion) {
  const std::uint64_t region = 4u << 20;
  for (IoPattern p : {IoPattern::write, IoPattern::randread}) {
    IoLayout layout(plan_of(p, 64u << 10, 4096, 4096), region, 7);
    const auto e = pass_of(layout, 0);
    expect_tiles(e, region);
    std::set<std::uint64_t> sizes;
    for (std::size_t k = 0; k + 1 < e.size(); ++k) sizes.insert(e[k].length);
    for (auto len : sizes) {
      EXPECT_GE(len, 4096u);
      EXPECT_LE(len, 64u << 10);
      EXPECT_EQ(len % 4096, 0u);
    }
    EXPECT_GT(sizes.size(), 8u);  // drawn, not one size
  }
}

TEST(IoLayout, IndependentOffsetsLieOnTheAlignmentInsideTheRegion) {
  const std::uint64_t region = 1u << 20;
  for (std::uint64_t align : {std::uint64_t{1}, std::uint64_t{8192}}) {
    IoPlan plan = plan_of(IoPattern::randwrite, 16384);
    plan.random_alignment = align;
    IoLayout layout(plan, region, 3);
    EXPECT_FALSE(layout.covers_region());
    EXPECT_EQ(layout.ios_per_pass(), 64u);
    std::set<std::uint64_t> offsets;
    for (const auto& e : pass_of(layout, 0)) {
      EXPECT_EQ(e.offset % align, 0u);
      EXPECT_LE(e.offset + e.length, region);
      offsets.insert(e.offset);
    }
    EXPECT_GT(offsets.size(), 32u);
    if (align == 1) {
      EXPECT_TRUE(std::any_of(offsets.begin(), offsets.end(), [](auto o) { return o % 512 != 0; }));
    }
  }
  // Sequential patterns ignore the alignment: they tile the region.
  IoPlan seq = plan_of(IoPattern::read, 16384);
  seq.random_alignment = 8192;
  IoLayout layout(seq, region, 3);
  EXPECT_TRUE(layout.covers_region());
}

TEST(IoLayout, TheSameSeedGivesTheSameIosAndAnotherOthers) {
  IoPlan plan = plan_of(IoPattern::randread, 64u << 10, 4096, 4096);
  plan.random_alignment = 4096;
  IoLayout a(plan, 8u << 20, 3456), b(plan, 8u << 20, 3456), c(plan, 8u << 20, 3457);
  for (std::uint64_t pass : {0u, 1u, 5u}) {
    const auto pa = pass_of(a, pass);
    EXPECT_TRUE(same(pa, pass_of(b, pass))) << pass;
    EXPECT_FALSE(same(pa, pass_of(c, pass))) << pass;
  }
}

TEST(IoLayout, AMixedRunReadsItsShare) {
  IoPlan plan = plan_of(IoPattern::write, 4096);
  plan.read_percent = 70;
  IoLayout layout(plan, 64u << 20, 9);
  const auto e = pass_of(layout, 0);
  const auto reads = std::count_if(e.begin(), e.end(), [](const auto& x) { return x.read; });
  EXPECT_NEAR(static_cast<double>(reads) / static_cast<double>(e.size()), 0.70, 0.02);
  plan.read_percent = 0;
  IoLayout none(plan, 1u << 20, 9);
  for (const auto& x : pass_of(none, 0)) EXPECT_FALSE(x.read);
  plan.read_percent = 100;
  IoLayout all(plan, 1u << 20, 9);
  for (const auto& x : pass_of(all, 0)) EXPECT_TRUE(x.read);
}

}  // namespace
}  // namespace xb
