#include "report/columns.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/metric_units.hpp"
#include "report/renderer.hpp"

namespace xb {

double summary_field(const Summary& s, std::string_view field) {
  if (field == "min") return s.min;
  if (field == "max") return s.max;
  if (field == "avg") return s.avg;
  if (field == "p50") return s.p50;
  if (field == "p90") return s.p90;
  if (field == "p99") return s.p99;
  if (field == "stddev") return s.stddev;
  return 0;
}

// A whole count prints as an integer ("400", not "400.0"); every other figure as format_number.
std::string metric_cell_text(const Metric& m) {
  if (is_count_unit(m.unit) && std::isfinite(m.value) && std::fabs(m.value) < 1e15 && std::floor(m.value) == m.value) {
    return fmt::format("{:.0f}", m.value);
  }
  return format_number(m.value);
}

std::vector<Column> case_columns(const CaseResult& c) {
  std::vector<Column> cols;
  for (const auto& [k, v] : c.labels) cols.push_back({k, v});
  static constexpr const char* kBrief[] = {"avg", "p50", "p99"};
  for (const auto& s : c.series) {
    for (const char* f : kBrief) {
      cols.push_back({fmt::format("{}_{}({})", s.name, f, s.unit), format_number(summary_field(s.summary, f))});
    }
  }
  for (const auto& m : c.metrics) cols.push_back({fmt::format("{}({})", m.name, m.unit), metric_cell_text(m)});
  // A judged case: what the figure should be, the ratio and the verdict after it.
  if (c.verdict) {
    const CaseVerdict& v = *c.verdict;
    cols.push_back({fmt::format("expected({})", v.unit), v.expected ? format_number(*v.expected) : std::string("-")});
    cols.push_back({"ratio", v.ratio ? fmt::format("{:.2f}", *v.ratio) : std::string("-")});
    cols.push_back({"verdict", v.verdict});
  }
  return cols;
}

}  // namespace xb
