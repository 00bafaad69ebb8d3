#include "core/metric_units.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>
#include <charconv>
#include <string>
#include <utility>

namespace xb {

std::optional<double> bandwidth_unit_bytes(std::string_view unit) {
  static constexpr std::array<std::pair<std::string_view, double>, 10> kUnits{{
      {"B/s", 1.0},
      {"KiB/s", 1024.0},
      {"MiB/s", 1048576.0},
      {"GiB/s", 1073741824.0},
      {"KB/s", 1e3},
      {"MB/s", 1e6},
      {"GB/s", 1e9},
      {"Kb/s", 1e3 / 8},
      {"Mb/s", 1e6 / 8},
      {"Gb/s", 1e9 / 8},
  }};
  for (const auto& [name, bytes] : kUnits) {
    if (unit == name) return bytes;
  }
  return std::nullopt;
}

std::optional<double> time_unit_seconds(std::string_view unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  return std::nullopt;
}

CanonicalFigure canonical_figure(double value, std::string_view unit) {
  if (const auto bytes = bandwidth_unit_bytes(unit)) return {value * *bytes, "B/s"};
  if (const auto seconds = time_unit_seconds(unit)) return {value * *seconds, "s"};
  return {value, std::string(unit)};
}

std::optional<double> from_canonical(double canonical, std::string_view canonical_unit, std::string_view display_unit) {
  if (canonical_unit == display_unit) return canonical;
  if (canonical_unit == "B/s") {
    if (const auto bytes = bandwidth_unit_bytes(display_unit)) return canonical / *bytes;
  }
  if (canonical_unit == "s") {
    if (const auto seconds = time_unit_seconds(display_unit)) return canonical / *seconds;
  }
  return std::nullopt;
}

std::optional<UnitSystem> unit_system_from(std::string_view name) {
  if (name == "binary") return UnitSystem::binary;
  if (name == "decimal") return UnitSystem::decimal;
  return std::nullopt;
}

void show_bandwidth_in(ResultDocument& doc, UnitSystem system) {
  const std::string unit = system == UnitSystem::binary ? "GiB/s" : "GB/s";
  const double unit_bytes = *bandwidth_unit_bytes(unit);
  for (CaseResult& c : doc.cases) {
    for (Metric& m : c.metrics) {
      if (const auto bytes = bandwidth_unit_bytes(m.unit)) {
        m.value = m.value * *bytes / unit_bytes;
        m.unit = unit;
      }
    }
    if (c.verdict) {
      if (const auto bytes = bandwidth_unit_bytes(c.verdict->unit)) {
        const double scale = *bytes / unit_bytes;
        c.verdict->actual *= scale;
        if (c.verdict->expected) *c.verdict->expected *= scale;
        if (c.verdict->ceiling) *c.verdict->ceiling *= scale;
        c.verdict->unit = unit;
      }
    }
  }
}

void drop_decimal_twins(ResultDocument& doc) {
  constexpr std::string_view kSuffix = "_decimal";
  for (CaseResult& c : doc.cases) {
    const auto is_twin = [&](const Metric& m) {
      if (!m.name.ends_with(kSuffix) || !bandwidth_unit_bytes(m.unit)) return false;
      const std::string base = m.name.substr(0, m.name.size() - kSuffix.size());
      const Metric* original = c.find_metric(base);
      return original != nullptr && bandwidth_unit_bytes(original->unit).has_value();
    };
    std::erase_if(c.metrics, is_twin);
  }
}

bool is_rate_unit(std::string_view unit) { return unit.size() > 2 && unit.ends_with("/s"); }

bool is_count_unit(std::string_view unit) {
  // Not a count: a share ("%"), a ratio or multiple ("ratio", "x median": a fleet threshold of 2 is
  // still a multiple that may be 1.5), a rate or a time.
  if (unit.empty() || unit == "%" || unit == "ratio" || unit == "x" || unit.starts_with("x ")) return false;
  return !is_rate_unit(unit) && !time_unit_seconds(unit).has_value();
}

namespace {

// "latency_p99.9" -> 99.9; nullopt when the name is not a latency percentile.
std::optional<double> latency_percentile(std::string_view name) {
  const auto at = name.rfind("_p");
  if (at == std::string_view::npos) return std::nullopt;
  const std::string number(name.substr(at + 2));
  if (number.empty()) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc{} || end != number.data() + number.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<Better> gated_direction(const Metric& m) {
  if (is_rate_unit(m.unit)) return Better::higher;
  if (!time_unit_seconds(m.unit) || !m.name.starts_with("latency")) return std::nullopt;
  if (m.name.ends_with("_avg")) return Better::lower;
  if (const auto p = latency_percentile(m.name); p && *p <= 99.0) return Better::lower;
  return std::nullopt;
}

}  // namespace xb
