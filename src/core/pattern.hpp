#pragma once
// The verification pattern: every 8-byte word is a hash of (seed, absolute byte offset of the word).
// A reader needs only the seed and the offset, so a later run can check what an earlier run wrote,
// and any mismatch is located to the byte.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace xb {

// Fills `buffer`, which starts at absolute offset `offset` (a multiple of 8) of the data set.
void fill_pattern(std::span<std::byte> buffer, std::uint64_t seed, std::uint64_t offset);

// Offset (absolute) of the first byte that differs from the pattern, if any.
std::optional<std::uint64_t> find_pattern_mismatch(std::span<const std::byte> buffer, std::uint64_t seed,
                                                   std::uint64_t offset);

// The pattern byte expected at an absolute offset (for error messages).
std::uint8_t pattern_byte(std::uint64_t seed, std::uint64_t offset);

}  // namespace xb
