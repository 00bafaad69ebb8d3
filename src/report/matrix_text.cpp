#include "report/matrix_text.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/renderer.hpp"

namespace xb {

void render_matrix_text(const Matrix& m, std::ostream& out) {
  const std::string corner = "from \\ to";
  std::size_t name_width = corner.size();
  for (const auto& r : m.rows) name_width = std::max(name_width, r.size());
  // Every column as wide as its name or its widest value.
  std::vector<std::vector<std::string>> cells(m.rows.size());
  std::vector<std::size_t> width(m.cols.size());
  for (std::size_t j = 0; j < m.cols.size(); ++j) width[j] = m.cols[j].size();
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    for (std::size_t j = 0; j < m.cols.size(); ++j) {
      const auto& v = i < m.values.size() && j < m.values[i].size() ? m.values[i][j] : std::nullopt;
      cells[i].push_back(v ? format_number(*v) : "-");
      width[j] = std::max(width[j], cells[i].back().size());
    }
  }
  out << fmt::format("  matrix ({}){}{}\n", m.unit, m.title.empty() ? "" : ": ", m.title);
  out << fmt::format("  {:<{}}", corner, name_width);
  for (std::size_t j = 0; j < m.cols.size(); ++j) out << fmt::format("  {:>{}}", m.cols[j], width[j]);
  out << '\n';
  for (std::size_t i = 0; i < m.rows.size(); ++i) {
    out << fmt::format("  {:<{}}", m.rows[i], name_width);
    for (std::size_t j = 0; j < m.cols.size(); ++j) out << fmt::format("  {:>{}}", cells[i][j], width[j]);
    out << '\n';
  }
}

}  // namespace xb
