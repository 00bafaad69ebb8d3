// Sweeps (core/sweep.hpp): one point, a list in its order, a doubling range, a range with a factor
// (MAX itself only where a power of the factor lands on it), counts; and every malformed form a
// UsageError naming the flag and the rule.
#include "core/sweep.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"

namespace xb {
namespace {

using Points = std::vector<std::uint64_t>;

TEST(Sweep, OnePointAListARangeAndAFactor) {
  EXPECT_EQ(parse_size_sweep("4M", "-s"), (Points{4u << 20}));
  EXPECT_EQ(parse_size_sweep("1M,4K,64K", "-s"), (Points{1u << 20, 4096, 65536}));
  EXPECT_EQ(parse_size_sweep("4K:64K", "-s"), (Points{4096, 8192, 16384, 32768, 65536}));
  EXPECT_EQ(parse_size_sweep("4K:1M:4", "-s"), (Points{4096, 16384, 65536, 262144, 1048576}));
  EXPECT_EQ(parse_size_sweep("4K:100K:4", "-s"), (Points{4096, 16384, 65536}));  // 256K would pass MAX
  EXPECT_EQ(parse_size_sweep("8K:8K", "-s"), (Points{8192}));
  EXPECT_EQ(parse_count_sweep("1:64:4", "--qd", 1, 1024), (Points{1, 4, 16, 64}));
  EXPECT_EQ(parse_count_sweep("32,1,8", "--qd", 1, 1024), (Points{32, 1, 8}));
  // The top of the size range: no overflow past kMaxSize.
  EXPECT_EQ(parse_size_sweep("512T:1P", "-s").back(), std::uint64_t{1} << 50);
}

TEST(Sweep, MalformedSweepsNameTheFlagAndTheRule) {
  const struct {
    std::string text, expected;
  } cases[] = {
      {"1M,2M:4M", "-s 1M,2M:4M: either a list (A,B,C) or a range (MIN:MAX[:FACTOR]), not both"},
      {"1M,,2M", "-s 1M,,2M: an empty point in the list"},
      {"8M:1M", "-s 8M:1M: the minimum is larger than the maximum (MIN:MAX)"},
      {"1K:1M:2:3", "-s 1K:1M:2:3: a range is MIN:MAX or MIN:MAX:FACTOR"},
      {"1K:1M:1", "-s FACTOR 1: expected a whole number from 2 to 1024"},
      {"4Q", "-s 4Q"},
      {"", "-s"},
  };
  for (const auto& c : cases) {
    try {
      parse_size_sweep(c.text, "-s");
      ADD_FAILURE() << c.text << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << c.text << ": " << e.what();
    }
  }
  std::string many = "1K";
  for (int i = 0; i < 64; ++i) many += ",1K";
  EXPECT_THROW(parse_size_sweep(many, "-s"), UsageError);  // 65 points
  many.resize(many.size() - 3);
  EXPECT_EQ(parse_size_sweep(many, "-s").size(), kMaxSweepPoints);
  EXPECT_THROW(parse_count_sweep("0:8", "--qd", 1, 1024), UsageError);
  EXPECT_THROW(parse_count_sweep("1,2000", "--qd", 1, 1024), UsageError);
}

}  // namespace
}  // namespace xb
