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
  std::string path, size, figure, unit, expected, verdict, note;
};

// The verdict where the survey judged the row's own figure (its headline metric), else "-".
void add_verdict(Line& l, const CaseResult& c, const SurveyRow& row) {
  if (!c.verdict || c.verdict->metric != row.metric) return;
  l.verdict = c.verdict->verdict;
  if (c.verdict->expected) l.expected = format_number(*c.verdict->expected);
}

Line line_of(const CaseResult& c, const SurveyRow& row) {
  Line l{row.path, row.size_bytes ? format_size(row.size_bytes) : "-", "-", "", "-", "-", ""};
  if (c.status != CaseStatus::ok) {
    l.note = fmt::format("{}: {}", c.status == CaseStatus::waived ? "not measured" : "FAILED", c.status_reason);
    return l;
  }
  if (const Metric* m = c.find_metric(row.metric)) {
    l.figure = format_number(m->value);
    l.unit = m->unit;
    add_verdict(l, c, row);
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
  const Line header{"path", "size", "figure", "unit", "expected", "verdict", ""};
  std::size_t path = header.path.size(), size = header.size.size(), figure = header.figure.size(),
              unit = header.unit.size(), expected = header.expected.size(), verdict = header.verdict.size();
  for (const Line& l : lines) {
    path = std::max(path, l.path.size());
    size = std::max(size, l.size.size());
    figure = std::max(figure, l.figure.size());
    unit = std::max(unit, l.unit.size());
    expected = std::max(expected, l.expected.size());
    verdict = std::max(verdict, l.verdict.size());
  }
  const auto print = [&](const Line& l) {
    std::string text = fmt::format("  {:<{}}  {:>{}}  {:>{}}  {:<{}}  {:>{}}  {:<{}}", l.path, path, l.size, size,
                                   l.figure, figure, l.unit, unit, l.expected, expected, l.verdict, verdict);
    if (!l.note.empty()) text += "  " + l.note;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << '\n';
  };
  print(header);
  for (const Line& l : lines) print(l);
  if (!doc.partial.empty()) {
    out << fmt::format("PARTIAL: the survey ended early ({}): {} step{} complete, shown above\n", doc.partial,
                       doc.cases.size(), doc.cases.size() == 1 ? "" : "s");
  }
}

}  // namespace xb
