#include "report/compare_render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

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

void render_table(const CompareResult& res, const LoadedResult& base, const LoadedResult& now, std::ostream& out) {
  out << source_line("BASE", base) << '\n' << source_line("NEW ", now) << '\n';
  out << fmt::format("ratio: NEW/BASE where higher is better, BASE/NEW where lower is better; below {} is marked\n\n",
                     res.threshold);
  using Row = std::array<std::string, 10>;
  std::vector<Row> rows{{"job", "case", "labels", "metric", "unit", "better", "base", "new", "ratio", ""}};
  for (const auto& r : res.rows) {
    std::string mark = r.below ? "BELOW" : "";
    if (!r.note.empty()) mark += (mark.empty() ? "" : ": ") + r.note;
    rows.push_back({r.key.job, r.key.name, labels_text(r.key), r.metric.empty() ? "(status)" : r.metric, r.unit,
                    better_text(r), figure(r.base), figure(r.now), r.ratio ? fmt::format("{:.3f}", *r.ratio) : "-",
                    mark});
  }
  std::array<std::size_t, 10> width{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      // Names read left to right; figures line up on the right.
      const bool figure_column = i >= 6 && i <= 8;
      line += figure_column ? fmt::format(" {:>{}}", row[i], width[i]) : fmt::format(" {:<{}}", row[i], width[i]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
  for (const auto& k : res.only_in_base) out << fmt::format("only in BASE: {} {} {}\n", k.job, k.name, labels_text(k));
  for (const auto& k : res.only_in_new) out << fmt::format("only in NEW: {} {} {}\n", k.job, k.name, labels_text(k));
  out << fmt::format("{} of {} compared figure{} below {}\n", res.below, res.rows.size(), res.rows.size() == 1 ? "" : "s",
                     res.threshold);
}

nlohmann::json key_json(const CaseKey& k) {
  nlohmann::json labels = nlohmann::json::array();
  for (const auto& [name, value] : k.labels) labels.push_back({{"key", name}, {"value", value}});
  return {{"job", k.job}, {"name", k.name}, {"labels", labels}};
}

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

void render_json(const CompareResult& res, const LoadedResult& base, const LoadedResult& now, std::ostream& out) {
  const auto source = [](const LoadedResult& r) {
    return nlohmann::json{{"file", r.path},
                          {"hostname", r.doc.machine.hostname},
                          {"version", r.doc.program_version},
                          {"started_at", r.doc.started_at}};
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
    row["below"] = r.below;
    row["note"] = r.note;
    rows.push_back(std::move(row));
  }
  nlohmann::json only_base = nlohmann::json::array(), only_new = nlohmann::json::array();
  for (const auto& k : res.only_in_base) only_base.push_back(key_json(k));
  for (const auto& k : res.only_in_new) only_new.push_back(key_json(k));
  const nlohmann::json doc{{"schema", "xferbench.compare"},
                           {"schema_version", 1},
                           {"threshold", res.threshold},
                           {"base", source(base)},
                           {"new", source(now)},
                           {"rows", rows},
                           {"only_in_base", only_base},
                           {"only_in_new", only_new},
                           {"below", res.below}};
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
  out << "job,case,labels,metric,unit,better,base,new,ratio,below,note\n";
  for (const auto& r : res.rows) {
    out << fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.key.job), csv_field(r.key.name),
                       csv_field(labels_text(r.key)), csv_field(r.metric), csv_field(r.unit), better_text(r),
                       csv_number(r.base), csv_number(r.now), csv_number(r.ratio), r.below ? "yes" : "no",
                       csv_field(r.note));
  }
  const auto unmatched = [&](const CaseKey& k, const char* note) {
    out << fmt::format("{},{},{},,,,,,,no,{}\n", csv_field(k.job), csv_field(k.name), csv_field(labels_text(k)), note);
  };
  for (const auto& k : res.only_in_base) unmatched(k, "only in BASE");
  for (const auto& k : res.only_in_new) unmatched(k, "only in NEW");
}

}  // namespace

void render_compare(const CompareResult& result, const LoadedResult& base, const LoadedResult& now,
                    OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::table: render_table(result, base, now, out); break;
    case OutputFormat::json: render_json(result, base, now, out); break;
    case OutputFormat::csv: render_csv(result, out); break;
  }
}

}  // namespace xb
