#include "report/survey_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/size.hpp"
#include "core/survey_row.hpp"
#include "report/renderer.hpp"

namespace xb {
namespace {

struct Line {
  std::string path, size, figure, unit, note;
};

Line line_of(const CaseResult& c, const SurveyRow& row) {
  Line l{row.path, row.size_bytes ? format_size(row.size_bytes) : "-", "-", "", ""};
  if (c.status != CaseStatus::ok) {
    l.note = fmt::format("{}: {}", c.status == CaseStatus::waived ? "not measured" : "FAILED", c.status_reason);
    return l;
  }
  if (const Metric* m = c.find_metric(row.metric)) {
    l.figure = format_number(m->value);
    l.unit = m->unit;
  } else {
    l.note = fmt::format("(no metric '{}' in case {})", row.metric, c.name);
  }
  return l;
}

}  // namespace

void render_survey_table(const ResultDocument& doc, std::ostream& out) {
  std::vector<Line> lines;
  for (const CaseResult& c : doc.cases) {
    if (const auto row = survey_row_of(c)) lines.push_back(line_of(c, *row));
  }
  Line width{"path", "size", "figure", "unit", ""};
  for (const Line& l : lines) {
    width.path = std::string(std::max(width.path.size(), l.path.size()), ' ');
    width.size = std::string(std::max(width.size.size(), l.size.size()), ' ');
    width.figure = std::string(std::max(width.figure.size(), l.figure.size()), ' ');
    width.unit = std::string(std::max(width.unit.size(), l.unit.size()), ' ');
  }
  const auto print = [&](const Line& l) {
    std::string text = fmt::format("  {:<{}}  {:>{}}  {:>{}}  {:<{}}", l.path, width.path.size(), l.size,
                                   width.size.size(), l.figure, width.figure.size(), l.unit, width.unit.size());
    if (!l.note.empty()) text += "  " + l.note;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  print({"path", "size", "figure", "unit", ""});
  for (const Line& l : lines) print(l);
}

}  // namespace xb
