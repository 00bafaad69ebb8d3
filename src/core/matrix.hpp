#pragma once
// The one way a case carries a matrix (P2P bandwidth between devices, a fleet's links), so the
// report can draw it as a heat map. It lives in the case's config under "matrix":
//   {"rows": ["npu0", …], "cols": ["npu0", …], "values": [[null, 164.3], [163.9, null]],
//    "unit": "GB/s", "title": "…" (optional), "better": "higher" | "lower" (optional)}
// values has one array per row, one number per column; null is a cell not measured (the diagonal).
// "better" defaults to higher for a rate unit (…/s) and lower otherwise. docs/report.md.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace xb {

struct Matrix {
  std::string title;
  std::vector<std::string> rows;
  std::vector<std::string> cols;
  std::vector<std::vector<std::optional<double>>> values;  // [row][col]
  std::string unit;
  bool higher_is_better = true;
};

// The matrix in `c.config["matrix"]`, nullopt when the case has none. Throws std::invalid_argument
// naming the rule when "matrix" is there but does not follow the convention.
std::optional<Matrix> case_matrix(const CaseResult& c);

// The convention's JSON for a matrix: what a job puts in `config["matrix"]`.
nlohmann::json matrix_to_json(const Matrix& m);

}  // namespace xb
