#include "core/sweep.hpp"

#include <fmt/format.h>

#include <functional>
#include <string>

#include "core/error.hpp"
#include "core/size.hpp"
#include "core/split.hpp"

namespace xb {
namespace {

// The one grammar, with `one` reading a point ("4M", "16").
std::vector<std::uint64_t> parse_sweep(std::string_view text, std::string_view flag,
                                       const std::function<std::uint64_t(std::string_view)>& one) {
  const bool list = text.find(',') != std::string_view::npos;
  const bool range = text.find(':') != std::string_view::npos;
  if (list && range) {
    throw UsageError(fmt::format("{} {}: either a list (A,B,C) or a range (MIN:MAX[:FACTOR]), not both", flag, text));
  }
  std::vector<std::uint64_t> points;
  if (range) {
    const auto parts = split_on(text, ':');
    if (parts.size() > 3) throw UsageError(fmt::format("{} {}: a range is MIN:MAX or MIN:MAX:FACTOR", flag, text));
    const std::uint64_t min = one(parts[0]), max = one(parts[1]);
    if (min > max) throw UsageError(fmt::format("{} {}: the minimum is larger than the maximum (MIN:MAX)", flag, text));
    if (min == 0) throw UsageError(fmt::format("{} {}: a range starts at 1 or more (each point is the last times FACTOR)", flag, text));
    const std::uint64_t factor = parts.size() == 3 ? parse_count(parts[2], fmt::format("{} FACTOR", flag), 2, 1024) : 2;
    for (std::uint64_t p = min; p <= max; p *= factor) {
      points.push_back(p);
      if (points.size() > kMaxSweepPoints || p > max / factor) break;  // the next would pass MAX (or overflow)
    }
  } else {
    for (const auto item : split_on(text, ',')) {
      if (item.empty()) throw UsageError(fmt::format("{} {}: an empty point in the list", flag, text));
      points.push_back(one(item));
    }
  }
  if (points.size() > kMaxSweepPoints) {
    throw UsageError(fmt::format("{} {}: at most {} points in a sweep", flag, text, kMaxSweepPoints));
  }
  return points;
}

}  // namespace

std::vector<std::uint64_t> parse_size_sweep(std::string_view text, std::string_view flag) {
  return parse_sweep(text, flag, [&](std::string_view s) { return parse_size(s, flag); });
}

std::vector<std::uint64_t> parse_count_sweep(std::string_view text, std::string_view flag, std::uint64_t min,
                                             std::uint64_t max) {
  return parse_sweep(text, flag, [&](std::string_view s) { return parse_count(s, flag, min, max); });
}

}  // namespace xb
