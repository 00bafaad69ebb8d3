#pragma once
// The one clock every measurement uses: monotonic, nanoseconds, never adjusted by NTP.
#include <cstdint>
#include <ctime>

namespace xb {

inline std::uint64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline double ns_to_us(std::uint64_t ns) noexcept { return static_cast<double>(ns) / 1e3; }

}  // namespace xb
