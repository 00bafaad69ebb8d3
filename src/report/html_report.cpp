#include "report/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/size.hpp"
#include "core/version.hpp"
#include "report/html_escape.hpp"
#include "report/renderer.hpp"
#include "report/svg_plot.hpp"

namespace xb {
namespace {

constexpr const char* kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
figure { margin: 1.5em 0; }
figcaption { font-weight: 600; margin-bottom: 0.4em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
td, th { border: 1px solid #ddd; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
details { margin: 0.4em 0; } summary { cursor: pointer; }
.note { color: #666; }
svg .grid { stroke: #e4e4e4; } svg .frame { fill: none; stroke: #888; }
svg text { font-size: 12px; fill: #333; } svg .axis-title { font-size: 13px; }
svg .cell.empty { fill: #eee; } svg .cell-value { font-size: 11px; }
)";

// Marks each plot with how many of its marks the browser laid out, so a headless browser can check
// that the page drew. The page shows the same without it.
constexpr const char* kSelfCheck = R"(<script>
for (const svg of document.querySelectorAll('svg.xb-plot')) {
  let drawn = 0;
  for (const mark of svg.querySelectorAll('.xb-mark')) {
    const box = mark.getBBox();
    if (box.width > 0 && box.height > 0) ++drawn;
  }
  svg.setAttribute('data-drawn-marks', String(drawn));
}
document.body.setAttribute('data-self-check', 'done');
</script>
)";

std::string e(std::string_view s) { return html_escape(s); }

std::string labels_text(const Labels& labels) {
  std::string s;
  for (const auto& [k, v] : labels) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", k, v);
  return s;
}

// A command line as a shell would take it back: arguments with spaces or quotes single-quoted.
std::string shell_line(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) {
    if (!s.empty()) s += ' ';
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                         "0123456789-_=./:,+@%") == std::string::npos;
    if (plain) {
      s += a;
      continue;
    }
    s += '\'';
    for (const char ch : a) s += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    s += '\'';
  }
  return s;
}

std::string bandwidth_section(const std::vector<BandwidthPlot>& plots) {
  std::string s = "<section id=\"bandwidth\">\n<h2>Bandwidth against block size</h2>\n";
  if (plots.empty()) s += "<p class=\"note\">No case carries a bandwidth metric and a size.</p>\n";
  for (const auto& p : plots) {
    double lo = 0, hi = 0, top = 0;
    bool first = true;
    LineChart chart;
    for (const auto& l : p.lines) {
      ChartLine line{l.name, {}};
      for (const auto& pt : l.points) {
        lo = first ? pt.size : std::min(lo, pt.size);
        hi = first ? pt.size : std::max(hi, pt.size);
        top = std::max(top, pt.value);
        first = false;
        line.points.push_back({pt.size, pt.value,
                               fmt::format("{}: {} at {}", pt.case_name, fmt::format("{} {}", format_number(pt.value), p.unit),
                                           format_size(static_cast<std::uint64_t>(pt.size)))});
      }
      chart.lines.push_back(std::move(line));
    }
    chart.x = log2_size_axis(lo, hi);
    chart.y = zero_based_axis(top);
    chart.x_title = "block size (bytes, log2 scale)";
    chart.y_title = fmt::format("{} ({})", p.metric, p.unit);
    s += fmt::format("<figure class=\"bandwidth\" data-job=\"{}\">\n<figcaption>{}{}{}</figcaption>\n", e(p.job), e(p.job),
                     p.labels.empty() ? "" : ": ", e(labels_text(p.labels)));
    s += line_chart_svg(chart);
    s += "</figure>\n";
  }
  return s + "</section>\n";
}

std::string latency_section(const std::vector<PercentilePlot>& plots) {
  std::string s = "<section id=\"latency\">\n<h2>Latency percentiles</h2>\n";
  if (plots.empty()) s += "<p class=\"note\">No case carries latency percentiles.</p>\n";
  for (const auto& p : plots) {
    // The categories: every percentile any line has, by rank.
    std::vector<std::pair<double, std::string>> ranks;
    double lo = 0, hi = 0;
    bool first = true;
    for (const auto& l : p.lines) {
      for (const auto& pt : l.points) {
        if (std::none_of(ranks.begin(), ranks.end(), [&](const auto& r) { return r.second == pt.name; })) {
          ranks.emplace_back(pt.rank, pt.name);
        }
        lo = first ? pt.value : std::min(lo, pt.value);
        hi = first ? pt.value : std::max(hi, pt.value);
        first = false;
      }
    }
    std::stable_sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> names;
    for (const auto& r : ranks) names.push_back(r.second);
    LineChart chart;
    chart.x = category_axis(names);
    // A log scale once the values span more than a factor of 30 (tails, or sizes far apart).
    const bool log = lo > 0 && hi / lo > 30;
    chart.y = log ? log10_axis(lo, hi) : zero_based_axis(hi);
    chart.x_title = "percentile";
    chart.y_title = fmt::format("{} ({}{})", p.quantity, p.unit, log ? ", log scale" : "");
    for (const auto& l : p.lines) {
      ChartLine line{l.name, {}};
      for (const auto& pt : l.points) {
        const auto at = std::find(names.begin(), names.end(), pt.name) - names.begin();
        line.points.push_back({static_cast<double>(at), pt.value,
                               fmt::format("{} {}: {} {}", l.name, pt.name, format_number(pt.value), p.unit)});
      }
      chart.lines.push_back(std::move(line));
    }
    s += fmt::format("<figure class=\"latency\" data-job=\"{}\">\n<figcaption>{}{}{} — {}</figcaption>\n", e(p.job),
                     e(p.job), p.labels.empty() ? "" : ": ", e(labels_text(p.labels)), e(p.quantity));
    s += line_chart_svg(chart);
    s += "</figure>\n";
  }
  return s + "</section>\n";
}

std::string matrix_section(const std::vector<MatrixView>& matrices) {
  std::string s = "<section id=\"matrices\">\n<h2>Matrices</h2>\n";
  if (matrices.empty()) s += "<p class=\"note\">No case carries a matrix.</p>\n";
  for (const auto& m : matrices) {
    s += fmt::format("<figure class=\"matrix\">\n<figcaption>{} — {}{}{}</figcaption>\n", e(m.case_name), e(m.case_title),
                     m.matrix.title.empty() ? "" : ": ", e(m.matrix.title));
    s += heat_map_svg(m.matrix);
    s += fmt::format("<p class=\"note\">from {}</p>\n</figure>\n", e(m.source));
  }
  return s + "</section>\n";
}

std::string case_details(const CaseResult& c) {
  std::string s = fmt::format("<details class=\"case\" data-case=\"{}\">\n<summary>{} · {} · {} ({}{}{})</summary>\n",
                              e(c.name), e(c.job), e(c.name), e(c.title), to_string(c.status),
                              c.status_reason.empty() ? "" : ": ", e(c.status_reason));
  if (!c.labels.empty()) {
    s += "<table class=\"labels\"><tr><th>label</th><th>value</th></tr>\n";
    for (const auto& [k, v] : c.labels) s += fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", e(k), e(v));
    s += "</table>\n";
  }
  if (!c.metrics.empty()) {
    s += "<table class=\"metrics\"><tr><th>metric</th><th>value</th><th>unit</th><th>formula</th></tr>\n";
    for (const auto& m : c.metrics) {
      s += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n", e(m.name),
                       e(format_number(m.value)), e(m.unit), e(m.formula));
    }
    s += "</table>\n";
  }
  if (!c.series.empty()) {
    s += "<table class=\"series\"><tr><th>series</th><th>unit</th><th>count</th><th>min</th><th>avg</th><th>p50</th>"
         "<th>p90</th><th>p99</th><th>max</th></tr>\n";
    for (const auto& se : c.series) {
      const auto& m = se.summary;
      s += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td>", e(se.name), e(se.unit), m.count);
      for (const double v : {m.min, m.avg, m.p50, m.p90, m.p99, m.max}) {
        s += fmt::format("<td class=\"num\">{}</td>", e(format_number(v)));
      }
      s += "</tr>\n";
    }
    s += "</table>\n";
  }
  s += fmt::format("<pre class=\"config\">{}</pre>\n</details>\n",
                   e(c.config.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)));
  return s;
}

std::string runs_section(const std::vector<LoadedResult>& results) {
  std::string s = "<section id=\"runs\">\n<h2>Runs and their configuration</h2>\n";
  for (const auto& r : results) {
    const auto& d = r.doc;
    const auto& m = d.machine;
    s += fmt::format("<article class=\"run\">\n<h3>{}</h3>\n<table class=\"run-info\">\n", e(r.path));
    const std::pair<const char*, std::string> rows[] = {
        {"xferbench", d.program_version},
        {"started", d.started_at},
        {"host", m.hostname},
        {"kernel", m.kernel},
        {"cpu", fmt::format("{} ({} logical CPUs, {} NUMA node{})", m.cpu_model, m.logical_cpus, m.numa_nodes,
                            m.numa_nodes == 1 ? "" : "s")},
        {"memory", format_bytes_human(m.memory_bytes)},
        {"command line", shell_line(d.command_line)},
        {"cases", d.partial.empty() ? std::to_string(d.cases.size())
                                    : fmt::format("{}, partial: the run ended early ({})", d.cases.size(), d.partial)},
    };
    for (const auto& [k, v] : rows) {
      s += fmt::format("<tr><th>{}</th><td class=\"{}\">{}</td></tr>\n", k,
                       std::string_view(k) == "command line" ? "command-line" : "", e(v));
    }
    s += "</table>\n";
    for (const auto& c : d.cases) s += case_details(c);
    s += "</article>\n";
  }
  return s + "</section>\n";
}

}  // namespace

std::string render_html_report(const std::vector<LoadedResult>& results, LineBy by) {
  const ReportModel model = build_report_model(results, by);
  std::size_t cases = 0;
  for (const auto& r : results) cases += r.doc.cases.size();
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing may be fetched: no external resource at all, enforced for the browser too.
  s += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'; img-src data:\">\n";
  s += "<title>xferbench report</title>\n<style>";
  s += kStyle;
  s += "</style>\n</head>\n<body>\n<h1>xferbench report</h1>\n";
  s += fmt::format("<p class=\"summary\">{} result file{}, {} case{}; made by xferbench {}.</p>\n", results.size(),
                   results.size() == 1 ? "" : "s", cases, cases == 1 ? "" : "s", e(program_version()));
  s += "<nav><a href=\"#bandwidth\">bandwidth</a> · <a href=\"#latency\">latency</a> · <a href=\"#matrices\">matrices</a>"
       " · <a href=\"#runs\">runs and configuration</a></nav>\n";
  s += bandwidth_section(model.bandwidth);
  s += latency_section(model.latency);
  s += matrix_section(model.matrices);
  s += runs_section(results);
  s += kSelfCheck;
  s += "</body>\n</html>\n";
  return s;
}

}  // namespace xb
