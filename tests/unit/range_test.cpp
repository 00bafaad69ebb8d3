// The program's one range check (src/core/range.hpp): edges exact, and no request whose end wraps
// past 2^64 looks small.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/range.hpp"

namespace xb {
namespace {

constexpr std::uint64_t kTop = ~std::uint64_t{0};

TEST(RangeInside, EdgesOfARegion) {
  EXPECT_TRUE(range_inside(0, 4096, 4096));     // the whole region
  EXPECT_TRUE(range_inside(4095, 1, 4096));     // its last byte
  EXPECT_TRUE(range_inside(4096, 0, 4096));     // empty, at the end
  EXPECT_TRUE(range_inside(0, 0, 0));           // empty, in an empty region
  EXPECT_FALSE(range_inside(4095, 2, 4096));    // one byte past the end
  EXPECT_FALSE(range_inside(0, 4097, 4096));
  EXPECT_FALSE(range_inside(4097, 0, 4096));    // starts past the end
  EXPECT_FALSE(range_inside(0, 1, 0));
}

TEST(RangeInside, EndsThatWrapPast2To64AreOutside) {
  // offset + length is 2^64 + 40 here, 40 once wrapped: inside 4096 bytes if computed naively.
  EXPECT_FALSE(range_inside(kTop - 9, 50, 4096));
  EXPECT_FALSE(range_inside(8, kTop - 7, 4096));  // wraps to exactly 0
  EXPECT_FALSE(range_inside(kTop, 1, 4096));
  EXPECT_FALSE(range_inside(1, kTop, 4096));
  EXPECT_FALSE(range_inside(kTop, kTop, kTop));
  EXPECT_TRUE(range_inside(1, kTop - 1, kTop));  // the largest region holds these exactly
  EXPECT_TRUE(range_inside(kTop, 0, kTop));
}

}  // namespace
}  // namespace xb
