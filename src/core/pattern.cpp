#include "core/pattern.hpp"

#include <cstring>

#include "core/splitmix.hpp"

namespace xb {
namespace {

inline std::uint64_t word_at(std::uint64_t seed, std::uint64_t word_offset) {
  return splitmix64(seed * 0x100000001b3ull ^ word_offset);
}

}  // namespace

std::uint8_t pattern_byte(std::uint64_t seed, std::uint64_t offset) {
  const std::uint64_t word = word_at(seed, offset & ~std::uint64_t{7});
  std::uint8_t bytes[8];
  std::memcpy(bytes, &word, 8);
  return bytes[offset & 7];
}

void fill_pattern(std::span<std::byte> buffer, std::uint64_t seed, std::uint64_t offset) {
  std::size_t i = 0;
  for (; i < buffer.size() && ((offset + i) & 7) != 0; ++i) {
    buffer[i] = std::byte{pattern_byte(seed, offset + i)};
  }
  for (; i + 8 <= buffer.size(); i += 8) {
    const std::uint64_t word = word_at(seed, offset + i);
    std::memcpy(buffer.data() + i, &word, 8);
  }
  for (; i < buffer.size(); ++i) buffer[i] = std::byte{pattern_byte(seed, offset + i)};
}

std::optional<std::uint64_t> find_pattern_mismatch(std::span<const std::byte> buffer, std::uint64_t seed,
                                                   std::uint64_t offset) {
  std::size_t i = 0;
  auto check_byte = [&](std::size_t at) {
    return buffer[at] == std::byte{pattern_byte(seed, offset + at)};
  };
  for (; i < buffer.size() && ((offset + i) & 7) != 0; ++i) {
    if (!check_byte(i)) return offset + i;
  }
  for (; i + 8 <= buffer.size(); i += 8) {
    const std::uint64_t want = word_at(seed, offset + i);
    std::uint64_t got;
    std::memcpy(&got, buffer.data() + i, 8);
    if (got != want) {
      for (std::size_t j = i; j < i + 8; ++j) {
        if (!check_byte(j)) return offset + j;
      }
    }
  }
  for (; i < buffer.size(); ++i) {
    if (!check_byte(i)) return offset + i;
  }
  return std::nullopt;
}

}  // namespace xb
