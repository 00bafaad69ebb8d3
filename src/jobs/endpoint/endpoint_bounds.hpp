#pragma once
// What every kind of endpoint memory checks before touching a range: that it lies inside the
// region. Internal to src/jobs/endpoint.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/range.hpp"

namespace xb::endpoint_detail {

// Throws std::out_of_range "CALL: [OFFSET, +BYTES) is outside WHAT (SIZE bytes)".
inline void check_range(std::string_view call, std::uint64_t offset, std::uint64_t bytes, std::uint64_t size,
                        const std::string& what) {
  if (!range_inside(offset, bytes, size)) {
    throw std::out_of_range(
        fmt::format("{}: [{}, +{}) is outside {} ({} bytes)", call, offset, bytes, what, size));
  }
}

}  // namespace xb::endpoint_detail
