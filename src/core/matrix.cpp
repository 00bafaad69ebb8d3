#include "core/matrix.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "core/metric_units.hpp"

namespace xb {
namespace {

std::vector<std::string> names_from(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_array() || j.at(key).empty()) {
    throw std::invalid_argument(fmt::format("matrix: \"{}\" must be a non-empty array of names", key));
  }
  std::vector<std::string> names;
  for (const auto& n : j.at(key)) {
    if (!n.is_string()) throw std::invalid_argument(fmt::format("matrix: every entry of \"{}\" must be a string", key));
    names.push_back(n.get<std::string>());
  }
  return names;
}

}  // namespace

std::optional<Matrix> case_matrix(const CaseResult& c) {
  if (!c.config.is_object() || !c.config.contains("matrix")) return std::nullopt;
  const auto& j = c.config.at("matrix");
  if (!j.is_object()) throw std::invalid_argument("matrix: must be an object with rows, cols, values and unit");
  Matrix m;
  m.rows = names_from(j, "rows");
  m.cols = names_from(j, "cols");
  if (!j.contains("unit") || !j.at("unit").is_string()) throw std::invalid_argument("matrix: \"unit\" must be a string");
  m.unit = j.at("unit").get<std::string>();
  if (j.contains("title")) {
    if (!j.at("title").is_string()) throw std::invalid_argument("matrix: \"title\" must be a string");
    m.title = j.at("title").get<std::string>();
  }
  m.higher_is_better = is_rate_unit(m.unit);
  if (j.contains("better")) {
    const auto& b = j.at("better");
    if (b == "higher") m.higher_is_better = true;
    else if (b == "lower") m.higher_is_better = false;
    else throw std::invalid_argument("matrix: \"better\" must be \"higher\" or \"lower\"");
  }
  const auto* values = j.contains("values") ? &j.at("values") : nullptr;
  if (values == nullptr || !values->is_array() || values->size() != m.rows.size()) {
    throw std::invalid_argument(fmt::format("matrix: \"values\" must hold one array per row ({})", m.rows.size()));
  }
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    const auto& row = values->at(r);
    if (!row.is_array() || row.size() != m.cols.size()) {
      throw std::invalid_argument(
          fmt::format("matrix: row {} of \"values\" must hold one entry per column ({})", r, m.cols.size()));
    }
    auto& out = m.values.emplace_back();
    for (const auto& v : row) {
      if (v.is_null()) {
        out.emplace_back();
      } else if (v.is_number() && std::isfinite(v.get<double>())) {
        out.emplace_back(v.get<double>());
      } else {
        throw std::invalid_argument(fmt::format("matrix: row {} of \"values\" holds something that is neither a number nor null", r));
      }
    }
  }
  return m;
}

nlohmann::json matrix_to_json(const Matrix& m) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& row : m.values) {
    nlohmann::json r = nlohmann::json::array();
    for (const auto& v : row) r.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
    values.push_back(std::move(r));
  }
  nlohmann::json j{{"rows", m.rows}, {"cols", m.cols}, {"values", values}, {"unit", m.unit},
                   {"better", m.higher_is_better ? "higher" : "lower"}};
  if (!m.title.empty()) j["title"] = m.title;
  return j;
}

}  // namespace xb
