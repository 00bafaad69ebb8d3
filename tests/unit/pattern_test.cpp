// The verification pattern (src/core/pattern.hpp): a function of (seed, absolute offset), so any
// slice can be checked on its own and a mismatch is located to the byte.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/pattern.hpp"

namespace xb {
namespace {

std::vector<std::byte> filled(std::size_t n, std::uint64_t seed, std::uint64_t offset) {
  std::vector<std::byte> v(n);
  fill_pattern(v, seed, offset);
  return v;
}

TEST(Pattern, FilledBufferHasNoMismatch) {
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 64u, 4093u, 65536u}) {
    const auto v = filled(n, 42, 0);
    EXPECT_EQ(find_pattern_mismatch(v, 42, 0), std::nullopt) << "size " << n;
  }
}

TEST(Pattern, IsNotTrivial) {
  // Not all zeros, and not one byte repeated: a zeroed buffer must not pass as patterned.
  const auto v = filled(4096, 42, 0);
  std::vector<std::byte> zeros(4096);
  EXPECT_NE(v, zeros);
  EXPECT_EQ(find_pattern_mismatch(zeros, 42, 0).has_value(), true);
  std::size_t same_as_first = 0;
  for (auto b : v) same_as_first += b == v[0] ? 1 : 0;
  EXPECT_LT(same_as_first, v.size() / 16);
}

TEST(Pattern, FlippedByteIsLocatedAtItsAbsoluteOffset) {
  constexpr std::uint64_t kBase = 1u << 20;  // the slice starts 1 MiB into the data set
  for (std::size_t at : {0u, 1u, 5u, 7u, 8u, 13u, 4095u, 4096u, 8191u}) {
    auto v = filled(8192, 7, kBase);
    v[at] ^= std::byte{0x01};
    const auto bad = find_pattern_mismatch(v, 7, kBase);
    ASSERT_TRUE(bad.has_value()) << "flip at " << at;
    EXPECT_EQ(*bad, kBase + at);
  }
}

TEST(Pattern, SliceStartingAtUnalignedOffset) {
  // A buffer that starts at an offset that is not a multiple of 8 holds the same bytes as the
  // matching range of a buffer filled from 0, and checks clean with that offset.
  const auto whole = filled(1024, 99, 0);
  for (std::uint64_t off : {1u, 3u, 7u, 9u, 13u, 100u}) {
    for (std::size_t len : {1u, 5u, 8u, 17u, 300u}) {
      const auto slice = filled(len, 99, off);
      ASSERT_EQ(std::memcmp(slice.data(), whole.data() + off, len), 0) << "offset " << off << " length " << len;
      EXPECT_EQ(find_pattern_mismatch(slice, 99, off), std::nullopt);
      // Checked against the wrong offset, it does not pass.
      if (len >= 8) {
        EXPECT_TRUE(find_pattern_mismatch(slice, 99, off + 1).has_value());
      }
    }
  }
}

TEST(Pattern, FlipInUnalignedSliceHeadBodyAndTail) {
  constexpr std::uint64_t kOff = 4096 + 3;  // head of 5 bytes before the first whole word
  constexpr std::size_t kLen = 77;          // 5 head + 9 words + 0 … and a ragged tail
  for (std::size_t at = 0; at < kLen; ++at) {
    auto v = filled(kLen, 5, kOff);
    v[at] = ~v[at];
    const auto bad = find_pattern_mismatch(v, 5, kOff);
    ASSERT_TRUE(bad.has_value()) << "flip at " << at;
    EXPECT_EQ(*bad, kOff + at);
  }
}

TEST(Pattern, FirstOfSeveralMismatchesIsReported) {
  auto v = filled(256, 1, 0);
  v[200] ^= std::byte{0xff};
  v[33] ^= std::byte{0x10};
  v[90] ^= std::byte{0x01};
  EXPECT_EQ(find_pattern_mismatch(v, 1, 0), 33u);
}

TEST(Pattern, DifferentSeedsGiveDifferentData) {
  const auto a = filled(4096, 1, 0);
  const auto b = filled(4096, 2, 0);
  EXPECT_NE(a, b);
  std::size_t equal_words = 0;
  for (std::size_t i = 0; i < a.size(); i += 8) equal_words += std::memcmp(&a[i], &b[i], 8) == 0 ? 1 : 0;
  EXPECT_EQ(equal_words, 0u);
  EXPECT_EQ(find_pattern_mismatch(a, 2, 0), 0u);
}

TEST(Pattern, BlockShiftedByEightBytesIsDetected) {
  // A copy that lands one word off (the source read from offset 8 too late) must not pass.
  const auto src = filled(4096 + 8, 3, 0);
  std::vector<std::byte> dst(4096);
  std::memcpy(dst.data(), src.data() + 8, dst.size());
  EXPECT_EQ(find_pattern_mismatch(dst, 3, 0), 0u);
  // The same bytes are right where they really belong.
  EXPECT_EQ(find_pattern_mismatch(dst, 3, 8), std::nullopt);
}

TEST(Pattern, SwappedBlocksAreDetected) {
  constexpr std::size_t kBlock = 512;
  const auto v = filled(2 * kBlock, 11, 0);
  std::vector<std::byte> swapped(v.size());
  std::memcpy(swapped.data(), v.data() + kBlock, kBlock);
  std::memcpy(swapped.data() + kBlock, v.data(), kBlock);
  EXPECT_EQ(find_pattern_mismatch(swapped, 11, 0), 0u);
}

TEST(Pattern, PatternByteAgreesWithFill) {
  constexpr std::uint64_t kOff = 123457;  // odd
  const auto v = filled(333, 0xabcdef, kOff);
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(static_cast<std::uint8_t>(v[i]), pattern_byte(0xabcdef, kOff + i)) << "byte " << i;
  }
}

}  // namespace
}  // namespace xb
