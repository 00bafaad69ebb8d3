#pragma once
// The flat columns of a case for the table renderer: labels, then per series its summary, then
// metrics. Cases with the same column set form one table. The summary's statistics are shared
// with the tidy CSV (one row each there).
#include <string>
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

// The table's columns: labels, avg/p50/p99 of each series, the metrics, and a verdict's columns.
std::vector<Column> case_columns(const CaseResult& c);

}  // namespace xb
