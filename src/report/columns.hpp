#pragma once
// The flat columns of a case for the table renderer: labels, then per series its summary, then
// metrics. Cases with the same column set form one table. The summary's statistics are shared
// with the tidy CSV (one row each there).
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace xb {

struct Column {
  std::string header;
  std::string value;
};

// Summary statistics shown per series, in order.
inline constexpr const char* kSummaryFields[] = {"min", "max", "avg", "p50", "p90", "p99", "stddev"};

double summary_field(const Summary& s, std::string_view field);

// A metric's figure in a table cell: a whole count (core/metric_units' is_count_unit) as an
// integer, every other figure as format_number.
std::string metric_cell_text(const Metric& m);

// A column's header: "name(unit)", or the name alone where the unit is none or the name again
// (a count of links: "links", not "links(links)").
std::string column_header(std::string_view name, std::string_view unit);

// The table's columns, each header once: labels, avg/p50/p99 of each series, the metrics, and a verdict's columns.
std::vector<Column> case_columns(const CaseResult& c);

}  // namespace xb
