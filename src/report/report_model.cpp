#include "report/report_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <string_view>

#include "core/error.hpp"
#include "core/metric_units.hpp"
#include "core/size.hpp"
#include "core/stats.hpp"
#include "core/survey_row.hpp"

namespace xb {
namespace {

constexpr std::array<std::string_view, 6> kSizeKeys{"block_bytes", "io_size", "message_bytes", "block", "size_bytes",
                                                     "size"};

std::optional<std::uint64_t> size_from_text(std::string_view text) {
  try {
    return parse_size(text, "size");
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

std::string line_name(const LoadedResult& r, LineBy by) {
  if (by == LineBy::file) return r.path;
  const auto& host = r.doc.machine.hostname;
  return fmt::format("{} (xferbench {})", host.empty() ? "unknown host" : host, r.doc.program_version);
}

// A percentile metric's rank: "p99.9" -> 99.9, "min" -> 0, "max" -> 100.
std::optional<double> rank_of(std::string_view suffix) {
  if (suffix == "min") return 0.0;
  if (suffix == "max") return 100.0;
  if (suffix.size() < 2 || suffix[0] != 'p') return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(suffix.data() + 1, suffix.data() + suffix.size(), v);
  if (ec != std::errc{} || end != suffix.data() + suffix.size() || v < 0 || v > 100) return std::nullopt;
  return v;
}

struct PercentileSet {
  std::string quantity;
  std::string unit;
  std::vector<PercentilePoint> points;
};

// A case's percentile sets: metric prefixes with at least one _p<N>, then time series.
std::vector<PercentileSet> percentile_sets(const CaseResult& c) {
  std::vector<PercentileSet> sets;
  for (const auto& m : c.metrics) {
    const auto cut = m.name.rfind('_');
    if (cut == std::string::npos || !time_unit_seconds(m.unit)) continue;
    const auto rank = rank_of(std::string_view(m.name).substr(cut + 1));
    if (!rank) continue;
    const std::string prefix = m.name.substr(0, cut);
    auto it = std::find_if(sets.begin(), sets.end(), [&](const auto& s) { return s.quantity == prefix; });
    if (it == sets.end()) it = sets.insert(sets.end(), PercentileSet{prefix, m.unit, {}});
    const double scale = *time_unit_seconds(m.unit) / *time_unit_seconds(it->unit);
    it->points.push_back({m.name.substr(cut + 1), *rank, m.value * scale});
  }
  // Only min and max is not a percentile set.
  std::erase_if(sets, [](const auto& s) {
    return std::none_of(s.points.begin(), s.points.end(), [](const auto& p) { return p.rank > 0 && p.rank < 100; });
  });
  for (const auto& s : c.series) {
    if (!time_unit_seconds(s.unit) || s.summary.count == 0) continue;
    sets.push_back({"series " + s.name, s.unit,
                    {{"min", 0, s.summary.min},
                     {"p50", 50, s.summary.p50},
                     {"p90", 90, s.summary.p90},
                     {"p99", 99, s.summary.p99},
                     {"max", 100, s.summary.max}}});
  }
  for (auto& s : sets) {
    std::stable_sort(s.points.begin(), s.points.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
  }
  return sets;
}

bool is_overlay_key(std::string_view key) {
  return std::any_of(std::begin(kOverlayLabelKeys), std::end(kOverlayLabelKeys), [&](const char* k) { return key == k; });
}

std::string size_line_name(const LoadedResult& r, const CaseResult& c, LineBy by) {
  const std::string overlay = overlay_of(c);
  return overlay.empty() ? line_name(r, by) : fmt::format("{} · {}", overlay, line_name(r, by));
}

// One run's figure at a size, on the plot of its path and quantity, on the line of its source.
void add_size_point(std::vector<SizePlot>& plots, const LoadedResult& r, const CaseResult& c, LineBy by,
                    std::uint64_t size, const std::string& quantity, double value, const std::string& unit,
                    std::optional<double> (*unit_scale)(std::string_view)) {
  Labels labels = group_labels(c, size);
  auto plot = std::find_if(plots.begin(), plots.end(), [&](const auto& p) {
    return p.job == c.job && p.labels == labels && p.metric == quantity;
  });
  if (plot == plots.end()) plot = plots.insert(plots.end(), SizePlot{c.job, std::move(labels), quantity, unit, {}});
  const double converted = value * *unit_scale(unit) / *unit_scale(plot->unit);
  const std::string name = size_line_name(r, c, by);
  auto line = std::find_if(plot->lines.begin(), plot->lines.end(), [&](const auto& l) { return l.name == name; });
  if (line == plot->lines.end()) line = plot->lines.insert(plot->lines.end(), SizeLine{name, {}});
  const double at = static_cast<double>(size);
  // Runs of one case (its name) at one size are one point; other cases at that size their own.
  auto point = std::find_if(line->points.begin(), line->points.end(),
                            [&](const auto& p) { return p.size == at && p.case_name == c.name; });
  if (point == line->points.end()) {
    point = line->points.insert(line->points.end(), SizePoint{at, 0, 0, 0, {}, c.name});
  }
  point->runs.push_back(converted);
}

void add_bandwidth_point(std::vector<SizePlot>& plots, const LoadedResult& r, const CaseResult& c, LineBy by) {
  const Metric* m = bandwidth_metric(c);
  const auto size = case_size_bytes(c);
  if (m == nullptr || !size || c.status != CaseStatus::ok) return;
  add_size_point(plots, r, c, by, *size, m->name, m->value, m->unit, bandwidth_unit_bytes);
}

// Latency against size: per latency quantity of the case, its p50, else its avg (link reports no
// percentiles), and each time series' p50.
void add_latency_size_points(std::vector<SizePlot>& plots, const LoadedResult& r, const CaseResult& c, LineBy by) {
  const auto size = case_size_bytes(c);
  if (!size || c.status != CaseStatus::ok) return;
  std::vector<std::string> done;
  for (const char* statistic : {"p50", "avg"}) {
    for (const auto& m : c.metrics) {
      const auto cut = m.name.rfind('_');
      if (cut == std::string::npos || m.name.substr(cut + 1) != statistic || !time_unit_seconds(m.unit)) continue;
      const std::string prefix = m.name.substr(0, cut);
      if (std::find(done.begin(), done.end(), prefix) != done.end()) continue;
      done.push_back(prefix);
      add_size_point(plots, r, c, by, *size, fmt::format("{} {}", prefix, statistic), m.value, m.unit,
                     time_unit_seconds);
    }
  }
  for (const auto& s : c.series) {
    if (!time_unit_seconds(s.unit) || s.summary.count == 0) continue;
    add_size_point(plots, r, c, by, *size, fmt::format("series {} p50", s.name), s.summary.p50, s.unit,
                   time_unit_seconds);
  }
}

// Points by size; each the median of its runs with their p10-p90.
void settle_size_plots(std::vector<SizePlot>& plots) {
  for (auto& plot : plots) {
    for (auto& line : plot.lines) {
      for (auto& p : line.points) {
        std::vector<double> sorted = p.runs;
        std::sort(sorted.begin(), sorted.end());
        p.value = quantile_sorted(sorted, 0.5);
        p.low = quantile_sorted(sorted, 0.1);
        p.high = quantile_sorted(sorted, 0.9);
      }
      std::stable_sort(line.points.begin(), line.points.end(),
                       [](const auto& a, const auto& b) { return a.size < b.size; });
    }
  }
}

void add_survey_entry(std::vector<SurveyEntry>& entries, const LoadedResult& r, const CaseResult& c) {
  const auto row = survey_row_of(c);
  if (!row) return;
  SurveyEntry e;
  e.source = r.path;
  e.path = row->path;
  e.size_bytes = row->size_bytes;
  e.status = to_string(c.status);
  e.metric = row->metric;
  if (c.status != CaseStatus::ok) {
    e.reason = c.status_reason;
  } else if (const Metric* m = c.find_metric(row->metric)) {
    e.figure = m->value;
    e.unit = m->unit;
    e.higher_is_better = !time_unit_seconds(m->unit).has_value();
    if (c.verdict && c.verdict->metric == row->metric) {
      e.verdict = c.verdict->verdict;
      e.ratio = c.verdict->ratio;
      if (c.verdict->expected && c.verdict->unit == m->unit) e.expected = c.verdict->expected;
    }
  } else {
    e.reason = fmt::format("no metric '{}' in case {}", row->metric, c.name);
  }
  entries.push_back(std::move(e));
}

// Each matrix's colour scale: its case's expected figure, else the largest value in its unit.
void set_matrix_scales(std::vector<MatrixView>& matrices, const std::vector<std::optional<double>>& expected) {
  for (std::size_t i = 0; i < matrices.size(); ++i) {
    auto& view = matrices[i];
    if (expected[i] && *expected[i] > 0) {
      // Higher is better: the expected figure is the scale's top (green), half of it its middle.
      // Lower is better (a time): 0 is the best end, so the scale runs to twice the expected
      // figure, which then sits in the middle and everything faster than it leans green.
      const bool higher = view.matrix.higher_is_better;
      view.scale_max = higher ? *expected[i] : 2 * *expected[i];
      view.scale_basis = higher ? "the case's expected figure" : "twice the case's expected figure";
      continue;
    }
    double top = 0;
    std::size_t count = 0;
    for (const auto& other : matrices) {
      if (other.matrix.unit != view.matrix.unit) continue;
      ++count;
      for (const auto& row : other.matrix.values) {
        for (const auto& v : row) {
          if (v) top = std::max(top, *v);
        }
      }
    }
    view.scale_max = top;
    view.scale_basis = count > 1 ? fmt::format("the largest value of the report's {} matrices in {}", count,
                                               view.matrix.unit)
                                 : "the largest value";
  }
}

void add_percentile_lines(std::vector<PercentilePlot>& plots, const LoadedResult& r, const CaseResult& c, LineBy by) {
  if (c.status != CaseStatus::ok) return;
  const auto size = case_size_bytes(c);
  const Labels labels = group_labels(c, size);
  const std::string source = size_line_name(r, c, by);
  const std::string name = size ? fmt::format("{} · {}", format_size(*size), source) : source;
  for (auto& set : percentile_sets(c)) {
    auto plot = std::find_if(plots.begin(), plots.end(), [&](const auto& p) {
      return p.job == c.job && p.labels == labels && p.quantity == set.quantity;
    });
    if (plot == plots.end()) plot = plots.insert(plots.end(), PercentilePlot{c.job, labels, set.quantity, set.unit, {}});
    const double scale = *time_unit_seconds(set.unit) / *time_unit_seconds(plot->unit);
    for (auto& p : set.points) p.value *= scale;
    plot->lines.push_back({name, std::move(set.points)});
  }
}

}  // namespace

std::optional<std::uint64_t> case_size_bytes(const CaseResult& c) {
  if (c.config.is_object()) {
    for (const auto key : kSizeKeys) {
      const auto it = c.config.find(std::string(key));
      if (it != c.config.end() && it->is_number() && it->get<double>() >= 1 && it->get<double>() <= 1.8e19) {
        return it->get<std::uint64_t>();
      }
    }
  }
  for (const auto key : kSizeKeys) {
    for (const auto& [k, v] : c.labels) {
      if (k != key) continue;
      if (const auto s = size_from_text(v)) return s;
    }
  }
  return std::nullopt;
}

Labels group_labels(const CaseResult& c, std::optional<std::uint64_t> size) {
  Labels out;
  for (const auto& l : c.labels) {
    if (size && size_from_text(l.second) == size) continue;
    if (is_overlay_key(l.first)) continue;
    out.push_back(l);
  }
  return out;
}

std::string overlay_of(const CaseResult& c) {
  std::string s;
  for (const auto& [k, v] : c.labels) {
    if (!is_overlay_key(k)) continue;
    // A transport or engine names itself ("tcp"); a server is a number, so it is said as one.
    s += (s.empty() ? "" : " ") + (k == "server" ? "server " + v : v);
  }
  return s;
}

std::size_t SizePlot::distinct_sizes() const {
  std::vector<double> sizes;
  for (const auto& l : lines) {
    for (const auto& p : l.points) {
      if (std::find(sizes.begin(), sizes.end(), p.size) == sizes.end()) sizes.push_back(p.size);
    }
  }
  return sizes.size();
}

const Metric* bandwidth_metric(const CaseResult& c) {
  for (const auto& m : c.metrics) {
    if (bandwidth_unit_bytes(m.unit)) return &m;
  }
  return nullptr;
}

ReportModel build_report_model(const std::vector<LoadedResult>& results, LineBy by) {
  ReportModel model;
  std::vector<std::optional<double>> matrix_expected;
  for (const auto& r : results) {
    for (const auto& c : r.doc.cases) {
      add_bandwidth_point(model.bandwidth, r, c, by);
      add_latency_size_points(model.latency_by_size, r, c, by);
      add_percentile_lines(model.latency, r, c, by);
      add_survey_entry(model.survey, r, c);
      try {
        if (auto m = case_matrix(c)) {
          const bool judged = c.verdict && c.verdict->expected && c.verdict->unit == m->unit;
          matrix_expected.push_back(judged ? c.verdict->expected : std::nullopt);
          model.matrices.push_back({r.path, c.name, c.title, std::move(*m), 0, ""});
        }
      } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("results file {}: case {}: {}", r.path, c.name, e.what()));
      }
    }
  }
  settle_size_plots(model.bandwidth);
  settle_size_plots(model.latency_by_size);
  set_matrix_scales(model.matrices, matrix_expected);
  return model;
}

}  // namespace xb
