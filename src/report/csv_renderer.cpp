#include <fmt/format.h>

#include "report/columns.hpp"
#include "report/renderer.hpp"

namespace xb {
namespace {

// RFC 4180: quote a field holding a comma, a quote or a line break; double the quotes inside.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace

void render_csv(const ResultDocument& doc, std::ostream& out) {
  std::string header;
  for (const auto& c : doc.cases) {
    std::vector<Column> cols{{"job", c.job}, {"name", c.name}, {"status", to_string(c.status)}};
    for (auto& col : case_columns(c, true)) cols.push_back(std::move(col));
    std::string h, row;
    for (std::size_t i = 0; i < cols.size(); ++i) {
      h += (i ? "," : "") + csv_field(cols[i].header);
      row += (i ? "," : "") + csv_field(cols[i].value);
    }
    // A new header whenever the columns change (a document may mix jobs).
    if (h != header) {
      out << h << '\n';
      header = h;
    }
    out << row << '\n';
  }
}

}  // namespace xb
