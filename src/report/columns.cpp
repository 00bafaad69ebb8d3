#include "report/columns.hpp"

#include <fmt/format.h>

#include <algorithm>
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

std::string column_header(std::string_view name, std::string_view unit) {
  return unit.empty() || unit == name ? std::string(name) : fmt::format("{}({})", name, unit);
}

std::vector<Column> case_columns(const CaseResult& c) {
  std::vector<Column> cols;
  // Each header once: a later column under a header already shown would print the same name twice
  // over two figures (a series' p50 from its samples beside the histogram's metric of that name).
  const auto add = [&cols](std::string header, std::string value) {
    if (std::none_of(cols.begin(), cols.end(), [&](const Column& k) { return k.header == header; })) {
      cols.push_back({std::move(header), std::move(value)});
    }
  };
  for (const auto& [k, v] : c.labels) add(k, v);
  // A case's metrics are its figures; a series' summary fills in only what no metric already says.
  static constexpr const char* kBrief[] = {"avg", "p50", "p99"};
  for (const auto& s : c.series) {
    for (const char* f : kBrief) {
      const std::string name = fmt::format("{}_{}", s.name, f);
      if (c.find_metric(name) == nullptr) add(column_header(name, s.unit), format_number(summary_field(s.summary, f)));
    }
  }
  for (const auto& m : c.metrics) add(column_header(m.name, m.unit), metric_cell_text(m));
  // A judged case: what the figure should be, the ratio and the verdict after it.
  if (c.verdict) {
    const CaseVerdict& v = *c.verdict;
    add(column_header("expected", v.unit), v.expected ? format_number(*v.expected) : std::string("-"));
    add("ratio", v.ratio ? fmt::format("{:.2f}", *v.ratio) : std::string("-"));
    add("verdict", v.verdict);
  }
  return cols;
}

}  // namespace xb
