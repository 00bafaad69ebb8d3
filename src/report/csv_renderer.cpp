// Tidy CSV: one header for the whole document, one row per case and figure, so a
// spreadsheet or pandas reads any run, mixed jobs included, without reshaping.
//   job,case,status,<every label key met, in order>,quantity,statistic,value,unit,note
// A series gives one row per summary statistic (quantity = the series, statistic = min … stddev);
// a metric one row (statistic "value"); a matrix one row per measured cell, its row and column
// device in the from/to label columns (quantity "matrix", statistic "cell"; its title is in the
// JSON); a judged case its expected figure, ratio and verdict; a case not ok one row with its
// reason; a run that ended early (Ctrl-C, a failure midway) a last row of status "partial".
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>
#include <stdexcept>

#include "core/matrix.hpp"
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

struct Tidy {
  std::vector<std::string> keys;  // the label columns, in the order first met
  std::ostream& out;

  void add_key(const std::string& k) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }

  void header() {
    std::string line = "job,case,status";
    for (const auto& k : keys) line += "," + csv_field(k);
    out << line << ",quantity,statistic,value,unit,note\n";
  }

  void row(const CaseResult& c, const std::map<std::string, std::string>& overrides, const std::string& quantity,
           const std::string& statistic, const std::string& value, const std::string& unit, const std::string& note,
           const char* status = nullptr) {
    std::string line = csv_field(c.job) + "," + csv_field(c.name) + "," + (status ? status : to_string(c.status));
    for (const auto& k : keys) {
      std::string v;
      if (const auto it = overrides.find(k); it != overrides.end()) {
        v = it->second;
      } else {
        v = c.label(k);
      }
      line += "," + csv_field(v);
    }
    out << line << "," << csv_field(quantity) << "," << csv_field(statistic) << "," << value << "," << csv_field(unit)
        << "," << csv_field(note) << '\n';
  }
};

std::optional<Matrix> matrix_or_none(const CaseResult& c) {
  try {
    return case_matrix(c);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // not the convention: its figures are still the case's metrics
  }
}

}  // namespace

void render_csv(const ResultDocument& doc, std::ostream& out) {
  Tidy t{{}, out};
  std::vector<std::optional<Matrix>> matrices;  // per case, read once (core/matrix: the convention)
  for (const auto& c : doc.cases) {
    for (const auto& [k, v] : c.labels) t.add_key(k);
    matrices.push_back(matrix_or_none(c));
    if (matrices.back()) {
      t.add_key("from");
      t.add_key("to");
    }
  }
  t.header();
  const std::map<std::string, std::string> none;
  for (std::size_t i = 0; i < doc.cases.size(); ++i) {
    const CaseResult& c = doc.cases[i];
    if (c.status != CaseStatus::ok) {
      t.row(c, none, "", "", "", "", c.status_reason);
      continue;
    }
    bool any = false;
    for (const auto& s : c.series) {
      for (const char* field : kSummaryFields) {
        t.row(c, none, s.name, field, fmt::format("{}", summary_field(s.summary, field)), s.unit, "");
        any = true;
      }
    }
    for (const auto& m : c.metrics) {
      t.row(c, none, m.name, "value", fmt::format("{}", m.value), m.unit, "");
      any = true;
    }
    if (const auto& m = matrices[i]) {
      for (std::size_t r = 0; r < m->values.size() && r < m->rows.size(); ++r) {
        for (std::size_t k = 0; k < m->values[r].size() && k < m->cols.size(); ++k) {
          if (!m->values[r][k]) continue;  // not measured (the diagonal)
          t.row(c, {{"from", m->rows[r]}, {"to", m->cols[k]}}, "matrix", "cell",
                fmt::format("{}", *m->values[r][k]), m->unit, "");
          any = true;
        }
      }
    }
    // A judged case (docs/judge.md): what its figure should be and the verdict, as rows of the
    // judged metric: statistic "expected" (in the metric's unit), "ratio", and "verdict" with the
    // word (and why, where unjudged) in the note.
    if (c.verdict) {
      const CaseVerdict& v = *c.verdict;
      if (v.expected) t.row(c, none, v.metric, "expected", fmt::format("{}", *v.expected), v.unit, v.rule);
      if (v.ratio) t.row(c, none, v.metric, "ratio", fmt::format("{}", *v.ratio), "", "");
      t.row(c, none, v.metric, "verdict", "", "", v.reason.empty() ? v.verdict : v.verdict + ": " + v.reason);
      any = true;
    }
    if (!any) t.row(c, none, "", "", "", "", "no figures");
  }
  // A run that ended early: one last row says so, in the status column (quantity "run").
  if (!doc.partial.empty()) {
    CaseResult run_row;
    t.row(run_row, none, "run", "partial", "", "", doc.partial, "partial");
  }
}

}  // namespace xb
