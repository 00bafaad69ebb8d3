#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

TEST(ParseSize, SeedSpellings) {
  EXPECT_EQ(parse_size("16K", "-s"), 16384u);
  EXPECT_EQ(parse_size("1M", "-s"), 1048576u);
  EXPECT_EQ(parse_size("512M", "-s"), 536870912u);
  EXPECT_EQ(parse_size("1g", "-s"), 1073741824u);
  EXPECT_EQ(parse_size("4096", "-s"), 4096u);
  EXPECT_EQ(parse_size("2KiB", "-s"), 2048u);
  EXPECT_EQ(parse_size("3kb", "-s"), 3072u);
}

TEST(ParseSize, RejectsBadSizesNamingTheFlag) {
  for (const char* bad : {"0", "-1", "16Q", "99999999999T", "", "K", "1.5M", "12 M", "1MM"}) {
    try {
      parse_size(bad, "-s");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("-s"), std::string::npos) << e.what();
    }
  }
}

TEST(ParseSize, Ranges) {
  const auto r = parse_size_range("64M:64M", "-s");
  EXPECT_EQ(r.min, 64u << 20);
  EXPECT_EQ(r.max, 64u << 20);
  const auto only_max = parse_size_range("32M", "-s", 4);
  EXPECT_EQ(only_max.min, 4u);
  EXPECT_EQ(only_max.max, 32u << 20);
  EXPECT_THROW(parse_size_range("8M:4M", "-s"), UsageError);
  EXPECT_THROW(parse_size_range("4M:", "-s"), UsageError);
}

TEST(ParseCount, Bounds) {
  EXPECT_EQ(parse_count("8", "-d", 1, 1024), 8u);
  EXPECT_THROW(parse_count("0", "-d", 1, 1024), UsageError);
  EXPECT_THROW(parse_count("-1", "-d", 1, 1024), UsageError);
  EXPECT_THROW(parse_count("2000", "-d", 1, 1024), UsageError);
  EXPECT_THROW(parse_count("8x", "-d", 1, 1024), UsageError);
}

TEST(ParseBool, OnlyTrueOrFalse) {
  EXPECT_TRUE(parse_bool("true", "--sdma"));
  EXPECT_FALSE(parse_bool("false", "--sdma"));
  EXPECT_THROW(parse_bool("maybe", "--sdma"), UsageError);
}

TEST(FormatSize, LargestExactUnit) {
  EXPECT_EQ(format_size(16384), "16K");
  EXPECT_EQ(format_size(536870912), "512M");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_size(3u << 30), "3G");
}

}  // namespace
}  // namespace xb
