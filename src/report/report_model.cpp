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

void add_bandwidth_point(std::vector<BandwidthPlot>& plots, const LoadedResult& r, const CaseResult& c, LineBy by) {
  const Metric* m = bandwidth_metric(c);
  const auto size = case_size_bytes(c);
  if (m == nullptr || !size || c.status != CaseStatus::ok) return;
  Labels labels = group_labels(c, size);
  auto plot = std::find_if(plots.begin(), plots.end(), [&](const auto& p) { return p.job == c.job && p.labels == labels; });
  if (plot == plots.end()) plot = plots.insert(plots.end(), BandwidthPlot{c.job, std::move(labels), m->name, m->unit, {}});
  const double value = m->value * *bandwidth_unit_bytes(m->unit) / *bandwidth_unit_bytes(plot->unit);
  const std::string name = line_name(r, by);
  auto line = std::find_if(plot->lines.begin(), plot->lines.end(), [&](const auto& l) { return l.name == name; });
  if (line == plot->lines.end()) line = plot->lines.insert(plot->lines.end(), SizeLine{name, {}});
  line->points.push_back({static_cast<double>(*size), value, c.name});
  std::stable_sort(line->points.begin(), line->points.end(), [](const auto& a, const auto& b) { return a.size < b.size; });
}

void add_percentile_lines(std::vector<PercentilePlot>& plots, const LoadedResult& r, const CaseResult& c, LineBy by) {
  if (c.status != CaseStatus::ok) return;
  const auto size = case_size_bytes(c);
  const Labels labels = group_labels(c, size);
  const std::string name = size ? fmt::format("{} · {}", format_size(*size), line_name(r, by)) : line_name(r, by);
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
    out.push_back(l);
  }
  return out;
}

const Metric* bandwidth_metric(const CaseResult& c) {
  for (const auto& m : c.metrics) {
    if (bandwidth_unit_bytes(m.unit)) return &m;
  }
  return nullptr;
}

ReportModel build_report_model(const std::vector<LoadedResult>& results, LineBy by) {
  ReportModel model;
  for (const auto& r : results) {
    for (const auto& c : r.doc.cases) {
      add_bandwidth_point(model.bandwidth, r, c, by);
      add_percentile_lines(model.latency, r, c, by);
      try {
        if (auto m = case_matrix(c)) model.matrices.push_back({r.path, c.name, c.title, std::move(*m)});
      } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("results file {}: case {}: {}", r.path, c.name, e.what()));
      }
    }
  }
  return model;
}

}  // namespace xb
