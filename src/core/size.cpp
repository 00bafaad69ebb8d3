#include "core/size.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "core/error.hpp"

namespace xb {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int unit_shift(std::string_view unit, std::string_view text, std::string_view flag) {
  const std::string u = lower(unit);
  if (u.empty() || u == "b") return 0;
  static constexpr std::string_view kUnits = "kmgtp";
  const auto pos = kUnits.find(u[0]);
  const bool suffix_ok = u.size() == 1 || u.substr(1) == "b" || u.substr(1) == "ib";
  if (pos == std::string_view::npos || !suffix_ok) {
    throw UsageError(fmt::format("{} {}: unknown unit '{}' (a size is a number with an optional unit "
                                 "K, M, G, T or P, K = 1024, e.g. 16K, 512M, 1G)",
                                 flag, text, unit));
  }
  return 10 * (static_cast<int>(pos) + 1);
}

}  // namespace

std::uint64_t parse_size(std::string_view text, std::string_view flag) {
  const std::string_view rule = "a size is a number with an optional unit K, M, G, T or P (K = 1024)";
  if (text.empty()) throw UsageError(fmt::format("{}: empty size ({})", flag, rule));
  if (text.front() == '-') {
    throw UsageError(fmt::format("{} {}: a size must be positive ({})", flag, text, rule));
  }
  std::uint64_t number = 0;
  const auto* begin = text.data();
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, number);
  if (ptr == begin) throw UsageError(fmt::format("{} {}: not a size ({})", flag, text, rule));
  const int shift = unit_shift(std::string_view(ptr, static_cast<std::size_t>(end - ptr)), text, flag);
  if (ec == std::errc::result_out_of_range || (number > (kMaxSize >> shift))) {
    throw UsageError(fmt::format("{} {}: too large (at most {})", flag, text, format_size(kMaxSize)));
  }
  if (number == 0) throw UsageError(fmt::format("{} {}: a size must be at least 1 byte", flag, text));
  return number << shift;
}

SizeRange parse_size_range(std::string_view text, std::string_view flag, std::uint64_t default_min) {
  const auto colon = text.find(':');
  SizeRange r;
  if (colon == std::string_view::npos) {
    r.max = parse_size(text, flag);
    r.min = default_min != 0 && default_min <= r.max ? default_min : r.max;
  } else {
    r.min = parse_size(text.substr(0, colon), flag);
    r.max = parse_size(text.substr(colon + 1), flag);
  }
  if (r.min > r.max) {
    throw UsageError(fmt::format("{} {}: the minimum is larger than the maximum (MIN:MAX)", flag, text));
  }
  return r;
}

std::uint64_t parse_count(std::string_view text, std::string_view flag, std::uint64_t min,
                          std::uint64_t max) {
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || text.front() == '-' || ptr != end || ec != std::errc() || value < min ||
      value > max) {
    throw UsageError(fmt::format("{} {}: expected a whole number from {} to {}", flag, text, min, max));
  }
  return value;
}

std::optional<double> parse_finite_number(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool parse_bool(std::string_view text, std::string_view flag) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw UsageError(fmt::format("{} {}: expected true or false", flag, text));
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"", "K", "M", "G", "T", "P"};
  int unit = 0;
  while (unit < 5 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return fmt::format("{}{}", bytes, kUnits[unit]);
}

std::string format_bytes_human(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (unit < 5 && value >= 1024.0) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

}  // namespace xb
