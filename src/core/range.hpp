#pragma once
// The one range check of the program: does [offset, offset + length) lie inside a region of `size`
// bytes? Every place that takes an offset and a length from a peer, a plan or a caller (the
// transports' passive sides, the session server, endpoint memory) asks this, so the overflow-safe
// form is written and tested once (tests/unit/range_test.cpp): offset + length may wrap past 2^64
// and make a huge request look small; these two comparisons cannot.
#include <cstdint>

namespace xb {

constexpr bool range_inside(std::uint64_t offset, std::uint64_t length, std::uint64_t size) noexcept {
  return offset <= size && length <= size - offset;
}

}  // namespace xb
