#include "report/compare_render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace xb {
namespace {

std::string labels_text(const CaseKey& k) {
  std::string s;
  for (const auto& [name, value] : k.labels) s += fmt::format("{}{}={}", s.empty() ? "" : ",", name, value);
  return s;
}

std::string figure(const std::optional<double>& v) { return v ? format_number(*v) : "-"; }

const char* better_text(const CompareRow& r) {
  if (r.metric.empty()) return "";
  return r.better == Better::higher ? "higher" : "lower";
}

std::string source_line(const char* role, const LoadedResult& r) {
  return fmt::format("{} {}: {}, xferbench {}, {}", role, r.path,
                     r.doc.machine.hostname.empty() ? "unknown host" : r.doc.machine.hostname, r.doc.program_version,
                     r.doc.started_at);
}

std::string runs_text(const CompareRow& r) {
  return r.base_runs > 1 || r.new_runs > 1 ? fmt::format("{}/{}", r.base_runs, r.new_runs) : "";
}

std::string p_text(const CompareRow& r) { return r.p_value ? fmt::format("{:.3g}", *r.p_value) : "-"; }

// What failed the gate besides the rows below: cases gone, or nothing to compare.
std::vector<std::string> gate_lines(const CompareResult& res) {
  std::vector<std::string> lines;
  if (res.matched == 0) lines.push_back("no case of BASE matched a case of NEW: nothing was compared");
  if (!res.only_in_base.empty()) {
    lines.push_back(fmt::format("{} case{} of BASE missing from NEW", res.only_in_base.size(),
                                res.only_in_base.size() == 1 ? "" : "s"));
  }
  return lines;
}

void render_table(const CompareResult& res, const std::vector<LoadedResult>& base, const std::vector<LoadedResult>& now,
                  std::ostream& out) {
  for (const auto& b : base) out << source_line("BASE", b) << '\n';
  for (const auto& n : now) out << source_line("NEW ", n) << '\n';
  out << fmt::format("ratio: NEW/BASE where higher is better, BASE/NEW where lower is better; below {} is marked", res.options.threshold);
  out << fmt::format("; with repetitions (runs BASE/NEW): medians, and a drop needs Mann–Whitney p < {}\n\n", res.options.alpha);
  using Row = std::array<std::string, 12>;
  std::vector<Row> rows{{"job", "case", "labels", "metric", "unit", "better", "base", "new", "ratio", "runs", "p", ""}};
  for (const auto& r : res.rows) {
    std::string mark = r.below ? "BELOW" : "";
    if (!r.note.empty()) mark += (mark.empty() ? "" : ": ") + r.note;
    rows.push_back({r.key.job, r.key.name, labels_text(r.key), r.metric.empty() ? "(status)" : r.metric, r.unit,
                    better_text(r), figure(r.base), figure(r.now), r.ratio ? fmt::format("{:.3f}", *r.ratio) : "-",
                    runs_text(r), p_text(r), mark});
  }
  std::array<std::size_t, 12> width{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      // Names read left to right; figures line up on the right.
      const bool figure_column = i >= 6 && i <= 10;
      line += figure_column ? fmt::format(" {:>{}}", row[i], width[i]) : fmt::format(" {:<{}}", row[i], width[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
  for (const auto& k : res.only_in_base) out << fmt::format("only in BASE: {} {} {}\n", k.job, k.name, labels_text(k));
  for (const auto& k : res.only_in_new) out << fmt::format("only in NEW: {} {} {}\n", k.job, k.name, labels_text(k));
  out << fmt::format("{} of {} compared figure{} below {}\n", res.below, res.rows.size(), res.rows.size() == 1 ? "" : "s",
                     res.options.threshold);
  for (const auto& line : gate_lines(res)) out << line << '\n';
}

nlohmann::json key_json(const CaseKey& k) {
  nlohmann::json labels = nlohmann::json::array();
  for (const auto& [name, value] : k.labels) labels.push_back({{"key", name}, {"value", value}});
  return {{"job", k.job}, {"name", k.name}, {"labels", labels}};
}

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

void render_json(const CompareResult& res, const std::vector<LoadedResult>& base, const std::vector<LoadedResult>& now,
                 std::ostream& out) {
  const auto sources = [](const std::vector<LoadedResult>& side) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& r : side) {
      files.push_back({{"file", r.path},
                       {"hostname", r.doc.machine.hostname},
                       {"version", r.doc.program_version},
                       {"started_at", r.doc.started_at}});
    }
    return files;
  };
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : res.rows) {
    nlohmann::json row = key_json(r.key);
    row["metric"] = r.metric;
    row["unit"] = r.unit;
    row["better"] = better_text(r);
    row["base"] = optional_json(r.base);
    row["new"] = optional_json(r.now);
    row["ratio"] = optional_json(r.ratio);
    row["base_runs"] = r.base_runs;
    row["new_runs"] = r.new_runs;
    row["p_value"] = optional_json(r.p_value);
    row["below"] = r.below;
    row["note"] = r.note;
    rows.push_back(std::move(row));
  }
  nlohmann::json only_base = nlohmann::json::array(), only_new = nlohmann::json::array();
  for (const auto& k : res.only_in_base) only_base.push_back(key_json(k));
  for (const auto& k : res.only_in_new) only_new.push_back(key_json(k));
  // Version 2: each side a list of files (repetitions); rows carry runs and p; the gate's outcome.
  const nlohmann::json doc{{"schema", "xferbench.compare"},
                           {"schema_version", 2},
                           {"threshold", res.options.threshold},
                           {"alpha", res.options.alpha},
                           {"base", sources(base)},
                           {"new", sources(now)},
                           {"rows", rows},
                           {"matched", res.matched},
                           {"only_in_base", only_base},
                           {"only_in_new", only_new},
                           {"below", res.below},
                           {"failed", res.failed()},
                           {"why", gate_lines(res)}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (const char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + '"';
}

std::string csv_number(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; }

void render_csv(const CompareResult& res, std::ostream& out) {
  out << "job,case,labels,metric,unit,better,base,new,ratio,base_runs,new_runs,p_value,below,note\n";
  for (const auto& r : res.rows) {
    out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.key.job), csv_field(r.key.name),
                       csv_field(labels_text(r.key)), csv_field(r.metric), csv_field(r.unit), better_text(r),
                       csv_number(r.base), csv_number(r.now), csv_number(r.ratio), r.base_runs, r.new_runs,
                       csv_number(r.p_value), r.below ? "yes" : "no", csv_field(r.note));
  }
  const auto unmatched = [&](const CaseKey& k, const char* note) {
    out << fmt::format("{},{},{},,,,,,,,,,no,{}\n", csv_field(k.job), csv_field(k.name), csv_field(labels_text(k)), note);
  };
  for (const auto& k : res.only_in_base) unmatched(k, "only in BASE");
  for (const auto& k : res.only_in_new) unmatched(k, "only in NEW");
}

}  // namespace

void render_compare(const CompareResult& result, const std::vector<LoadedResult>& base,
                    const std::vector<LoadedResult>& now, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::table: render_table(result, base, now, out); break;
    case OutputFormat::json: render_json(result, base, now, out); break;
    case OutputFormat::csv: render_csv(result, out); break;
  }
}

}  // namespace xb
