#pragma once
// Sweeps as nccl-tests' -b/-e/-f and fio's lists give them: one flag value names
// every point a job runs, each point a case of one result.
//   "4M"          one point
//   "4K,64K,1M"   a list, in the order given
//   "4K:1M"       MIN to MAX, doubling
//   "4K:1M:4"     MIN to MAX, times FACTOR (a whole number, at least 2)
// Errors are UsageErrors naming the flag and the rule, before anything runs.
#include <cstdint>
#include <string_view>
#include <vector>

namespace xb {

// At most this many points: a sweep is a curve, not a scan (and each point is a whole run).
inline constexpr std::size_t kMaxSweepPoints = 64;

// Sizes (parse_size's units and limits).
std::vector<std::uint64_t> parse_size_sweep(std::string_view text, std::string_view flag);

// Whole numbers in [min, max] (a queue depth): the same forms.
std::vector<std::uint64_t> parse_count_sweep(std::string_view text, std::string_view flag, std::uint64_t min,
                                             std::uint64_t max);

}  // namespace xb
