#include "core/result.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/json_optional.hpp"
#include "core/metric_units.hpp"

namespace xb {

const Series* CaseResult::find_series(std::string_view series_name) const {
  for (const auto& s : series) {
    if (s.name == series_name) return &s;
  }
  return nullptr;
}

const Metric* CaseResult::find_metric(std::string_view metric_name) const {
  for (const auto& m : metrics) {
    if (m.name == metric_name) return &m;
  }
  return nullptr;
}

std::string CaseResult::label(std::string_view key) const {
  for (const auto& [k, v] : labels) {
    if (k == key) return v;
  }
  return {};
}

Series make_series(std::string name, std::string unit, std::vector<double> samples) {
  Series s{std::move(name), std::move(unit), std::move(samples), {}};
  s.summary = summarize(s.samples);
  return s;
}

const char* to_string(CaseStatus status) {
  switch (status) {
    case CaseStatus::ok: return "ok";
    case CaseStatus::waived: return "waived";
    case CaseStatus::failed: return "failed";
  }
  return "unknown";
}

namespace {

using nlohmann::json;

json summary_json(const Summary& s) {
  return {{"count", s.count}, {"min", s.min}, {"max", s.max}, {"avg", s.avg}, {"p50", s.p50},
          {"p90", s.p90},     {"p99", s.p99}, {"stddev", s.stddev}};
}

json series_json(const Series& s) {
  return {{"name", s.name}, {"unit", s.unit}, {"samples", s.samples}, {"summary", summary_json(s.summary)}};
}

Summary summary_from(const json& j) {
  Summary s;
  s.count = j.value("count", std::size_t{0});
  s.min = j.value("min", 0.0);
  s.max = j.value("max", 0.0);
  s.avg = j.value("avg", 0.0);
  s.p50 = j.value("p50", 0.0);
  s.p90 = j.value("p90", 0.0);
  s.p99 = j.value("p99", 0.0);
  s.stddev = j.value("stddev", 0.0);
  return s;
}

// The summary is recomputed from the samples when there are any (the samples are the truth); a
// series summarized elsewhere (from a histogram, with no samples kept) keeps its stored summary.
Series series_from(const json& j) {
  Series s = make_series(j.at("name").get<std::string>(), j.at("unit").get<std::string>(),
                         j.at("samples").get<std::vector<double>>());
  if (s.samples.empty() && j.contains("summary")) s.summary = summary_from(j.at("summary"));
  return s;
}

CaseStatus status_from(const std::string& s) {
  if (s == "ok") return CaseStatus::ok;
  if (s == "waived") return CaseStatus::waived;
  if (s == "failed") return CaseStatus::failed;
  throw std::runtime_error("unknown case status '" + s + "'");
}

}  // namespace

void to_json(json& j, const CaseResult& c) {
  json labels = json::array();
  for (const auto& [k, v] : c.labels) labels.push_back({{"key", k}, {"value", v}});
  json series = json::array();
  for (const auto& s : c.series) series.push_back(series_json(s));
  json ranks = json::array();
  for (const auto& r : c.ranks) {
    json rs = json::array();
    for (const auto& s : r.series) rs.push_back(series_json(s));
    ranks.push_back({{"rank", r.rank}, {"device", r.device}, {"series", rs}});
  }
  json metrics = json::array();
  for (const auto& m : c.metrics) {
    // value and unit in the family's one unit (B/s, s); the unit the tables show beside it.
    const CanonicalFigure canonical = canonical_figure(m.value, m.unit);
    metrics.push_back({{"name", m.name},
                       {"value", canonical.value},
                       {"unit", canonical.unit},
                       {"display_value", m.value},
                       {"display_unit", m.unit},
                       {"formula", m.formula}});
  }
  j = {{"job", c.job},
       {"name", c.name},
       {"title", c.title},
       {"status", to_string(c.status)},
       {"status_reason", c.status_reason},
       {"labels", labels},
       // A case that never ran (waived before its plan was resolved) may have none: still an object.
       {"config", c.config.is_null() ? json::object() : c.config},
       {"series", series},
       {"ranks", ranks},
       {"metrics", metrics}};
  if (c.verdict) {
    const CaseVerdict& v = *c.verdict;
    json jv = {{"metric", v.metric},   {"unit", v.unit},     {"actual", v.actual},   {"verdict", v.verdict},
               {"reason", v.reason},   {"rule", v.rule},       {"layer", v.layer},   {"origin", v.origin},
               {"ceiling_derivation", v.ceiling_derivation}, {"warnings", v.warnings}, {"sku", v.sku}};
    put_or_null(jv, "expected", v.expected);
    put_or_null(jv, "ratio", v.ratio);
    put_or_null(jv, "ceiling", v.ceiling);
    j["verdict"] = jv;
  }
}

json to_json(const ResultDocument& doc) {
  json environment = json::object();
  for (const auto& [name, value] : doc.environment) environment[name] = value;
  json cases = json::array();
  for (const auto& c : doc.cases) cases.push_back(c);
  json out = {{"schema", kResultSchemaName},
          {"schema_version", kResultSchemaVersion},  // the format written, whatever was read
          {"program", {{"name", "xferbench"}, {"version", doc.program_version}}},
          {"started_at", doc.started_at},
          {"machine",
           {{"hostname", doc.machine.hostname},
            {"kernel", doc.machine.kernel},
            {"cpu_model", doc.machine.cpu_model},
            {"logical_cpus", doc.machine.logical_cpus},
            {"numa_nodes", doc.machine.numa_nodes},
            {"memory_bytes", doc.machine.memory_bytes}}},
          {"command_line", doc.command_line},
          {"environment", environment},
          {"cases", cases}};
  if (!doc.partial.empty()) out["partial"] = {{"reason", doc.partial}};
  return out;
}

namespace {

// A metric as a version 2 document writes it (value in the family's unit, the shown unit beside
// it), or as version 1 did (value and unit as shown). In memory a metric is as shown: the canonical
// value converted back, so an edit of "value" (a script scaling a run) is what is read; a document
// whose units do not convert keeps the value shown.
Metric metric_from(const json& mt) {
  Metric m{mt.at("name").get<std::string>(), mt.at("value").get<double>(), mt.at("unit").get<std::string>(),
           mt.value("formula", "")};
  if (const auto it = mt.find("display_unit"); it != mt.end() && it->is_string()) {
    const std::string shown = it->get<std::string>();
    if (const auto v = from_canonical(m.value, m.unit, shown)) {
      // The converted value, or display_value where they agree to rounding (a round trip then
      // gives back the very figure written, not one a unit in the last place away).
      const double written = mt.value("display_value", *v);
      m.value = std::abs(written - *v) <= 1e-12 * std::max(std::abs(written), std::abs(*v)) ? written : *v;
    } else {
      m.value = mt.at("display_value").get<double>();
    }
    m.unit = shown;
  }
  return m;
}

}  // namespace

void from_json(const json& jc, CaseResult& c) {
  c = CaseResult{};
  c.job = jc.at("job").get<std::string>();
  c.name = jc.at("name").get<std::string>();
  c.title = jc.value("title", "");
  c.status = status_from(jc.value("status", "ok"));
  c.status_reason = jc.value("status_reason", "");
  for (const auto& l : jc.at("labels")) c.labels.emplace_back(l.at("key"), l.at("value"));
  c.config = jc.value("config", json::object());
  for (const auto& s : jc.at("series")) c.series.push_back(series_from(s));
  for (const auto& r : jc.value("ranks", json::array())) {
    RankResult rr{r.at("rank").get<int>(), r.at("device").get<std::string>(), {}};
    for (const auto& s : r.at("series")) rr.series.push_back(series_from(s));
    c.ranks.push_back(std::move(rr));
  }
  for (const auto& mt : jc.at("metrics")) c.metrics.push_back(metric_from(mt));
  if (const auto it = jc.find("verdict"); it != jc.end() && it->is_object()) {
    CaseVerdict v;
    v.metric = it->at("metric").get<std::string>();
    v.unit = it->at("unit").get<std::string>();
    v.actual = it->at("actual").get<double>();
    v.verdict = it->at("verdict").get<std::string>();
    v.reason = it->value("reason", "");
    v.rule = it->value("rule", "");
    v.layer = it->value("layer", "");
    v.origin = it->value("origin", "");
    v.ceiling_derivation = it->value("ceiling_derivation", "");
    v.warnings = it->value("warnings", std::vector<std::string>{});
    v.sku = it->value("sku", "");
    get_optional(*it, "expected", v.expected);
    get_optional(*it, "ratio", v.ratio);
    get_optional(*it, "ceiling", v.ceiling);
    c.verdict = std::move(v);
  }
}

ResultDocument result_from_json(const json& j) {
  if (!j.is_object() || j.value("schema", "") != kResultSchemaName) {
    throw std::runtime_error(fmt::format("not an xferbench result document (no \"schema\": \"{}\")",
                                         kResultSchemaName));
  }
  const int version = j.at("schema_version").get<int>();
  if (version < kOldestResultSchemaVersion || version > kResultSchemaVersion) {
    throw std::runtime_error(fmt::format("result schema version {} is not supported (this xferbench reads {} to {})",
                                         version, kOldestResultSchemaVersion, kResultSchemaVersion));
  }
  ResultDocument doc;
  doc.schema_version = version;
  doc.program_version = j.at("program").at("version").get<std::string>();
  doc.started_at = j.value("started_at", "");
  const auto& m = j.at("machine");
  doc.machine = {m.value("hostname", ""), m.value("kernel", ""), m.value("cpu_model", ""),
                 m.value("logical_cpus", 0u), m.value("numa_nodes", 1), m.value("memory_bytes", std::uint64_t{0})};
  doc.command_line = j.value("command_line", std::vector<std::string>{});
  // Older documents have no "environment": read as empty.
  if (const auto it = j.find("environment"); it != j.end() && it->is_object()) {
    for (const auto& [name, value] : it->items()) {
      if (value.is_string()) doc.environment.emplace_back(name, value.get<std::string>());
    }
  }
  for (const auto& jc : j.at("cases")) doc.cases.push_back(jc.get<CaseResult>());
  if (const auto it = j.find("partial"); it != j.end() && it->is_object()) {
    doc.partial = it->value("reason", "ended early");
  }
  return doc;
}

}  // namespace xb
