// The block order of a pass: sequential, or a permutation that visits every block exactly once.
#include "jobs/io/block_order.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace xb {
namespace {

TEST(BlockOrder, SequentialIsTheIdentity) {
  BlockOrder o(10, false, 7);
  for (std::uint64_t k = 0; k < 10; ++k) EXPECT_EQ(o.at(k), k);
}

TEST(BlockOrder, RandomVisitsEveryBlockOnce) {
  for (std::uint64_t n : {1ull, 2ull, 3ull, 5ull, 64ull, 1000ull, 4097ull, 65536ull}) {
    BlockOrder o(n, true, 0x1234 + n);
    std::vector<int> seen(n, 0);
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t b = o.at(k);
      ASSERT_LT(b, n);
      ++seen[b];
    }
    for (std::uint64_t b = 0; b < n; ++b) ASSERT_EQ(seen[b], 1) << "n=" << n << " block " << b;
  }
}

TEST(BlockOrder, RandomIsShuffledAndSeedDependent) {
  BlockOrder a(1000, true, 1), b(1000, true, 2);
  int in_place = 0, same = 0;
  for (std::uint64_t k = 0; k < 1000; ++k) {
    in_place += a.at(k) == k;
    same += a.at(k) == b.at(k);
  }
  EXPECT_LT(in_place, 20);
  EXPECT_LT(same, 20);
}

}  // namespace
}  // namespace xb
