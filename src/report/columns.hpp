#pragma once
// The flat columns of a case, shared by the table and CSV renderers: labels, then per series its
// summary, then metrics. Cases with the same column set form one table.
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

// `full`: every summary field (CSV); otherwise avg, p50, p99 (table).
std::vector<Column> case_columns(const CaseResult& c, bool full);

}  // namespace xb
