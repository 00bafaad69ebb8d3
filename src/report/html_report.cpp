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
figure { overflow-x: auto; }
tr.verdict-PASS td { background: #eaf6ee; } tr.verdict-WARN td { background: #fdf3e1; }
tr.verdict-FAIL td { background: #fbe4e2; }
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
  // Where the plot lies on the page (CSS pixels from the page's top left), for a screenshot check.
  const r = svg.getBoundingClientRect();
  svg.setAttribute('data-rect', [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]
                                    .map(v => Math.round(v)).join(','));
}
document.body.setAttribute('data-page-height', String(document.documentElement.scrollHeight));
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

std::string plot_caption(const SizePlot& p) {
  return fmt::format("{}{}{}", e(p.job), p.labels.empty() ? "" : ": ", e(labels_text(p.labels)));
}

// The paths of a section measured at one size, as one table: a line through one point says
// nothing a number does not.
std::string single_size_table(const std::vector<const SizePlot*>& plots, std::string_view kind) {
  std::string s = fmt::format("<figure class=\"{} single-size\">\n<figcaption>measured at one size</figcaption>\n"
                              "<table class=\"single-size\"><tr><th>path</th><th>line</th><th>size</th><th>figure</th>"
                              "<th>value</th><th>unit</th><th>runs</th><th>p10 – p90</th></tr>\n",
                              kind);
  for (const SizePlot* p : plots) {
    for (const auto& l : p->lines) {
      for (const auto& pt : l.points) {
        s += fmt::format(
            "<tr data-job=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>"
            "<td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
            e(p->job), plot_caption(*p), e(l.name), e(format_size(static_cast<std::uint64_t>(pt.size))), e(p->metric),
            e(format_number(pt.value)), e(p->unit), pt.runs.size(),
            pt.runs.size() > 1 ? e(fmt::format("{} – {}", format_number(pt.low), format_number(pt.high)))
                               : std::string("-"));
      }
    }
  }
  return s + "</table>\n</figure>\n";
}

std::string size_chart(const SizePlot& p, std::string_view kind) {
  double lo = 0, hi = 0, vlo = 0, vhi = 0;
  bool first = true;
  LineChart chart;
  for (const auto& l : p.lines) {
    ChartLine line{l.name, {}};
    for (const auto& pt : l.points) {
      lo = first ? pt.size : std::min(lo, pt.size);
      hi = first ? pt.size : std::max(hi, pt.size);
      vlo = first ? pt.low : std::min(vlo, pt.low);
      vhi = first ? pt.high : std::max(vhi, pt.high);
      first = false;
      std::string tip = fmt::format("{}: {} {} at {}", pt.case_name, format_number(pt.value), p.unit,
                                    format_size(static_cast<std::uint64_t>(pt.size)));
      if (pt.runs.size() > 1) {
        tip += fmt::format(" (median of {} runs; p10 {} – p90 {})", pt.runs.size(), format_number(pt.low),
                           format_number(pt.high));
      }
      line.points.push_back({pt.size, pt.value, std::move(tip), pt.low, pt.high});
    }
    chart.lines.push_back(std::move(line));
  }
  // A log scale once the values span more than a factor of 30 (a sweep from 8 B to 1 MiB), else
  // linear from zero so that heights compare honestly.
  const bool log = vlo > 0 && vhi / vlo > 30;
  chart.x = log2_size_axis(lo, hi);
  chart.y = log ? log10_axis(vlo, vhi) : zero_based_axis(vhi);
  chart.x_title = "block size (bytes, log2 scale)";
  chart.y_title = fmt::format("{} ({}{})", p.metric, p.unit, log ? ", log scale" : "");
  std::string s = fmt::format("<figure class=\"{}\" data-job=\"{}\">\n<figcaption>{}</figcaption>\n", kind, e(p.job),
                              plot_caption(p));
  s += line_chart_svg(chart);
  return s + "</figure>\n";
}

std::string size_section(std::string_view id, std::string_view heading, const std::vector<SizePlot>& plots,
                         std::string_view none, std::string_view kind) {
  std::string s = fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", id, heading);
  if (plots.empty()) s += fmt::format("<p class=\"note\">{}</p>\n", none);
  std::vector<const SizePlot*> single;
  for (const auto& p : plots) {
    if (p.distinct_sizes() < 2) {
      single.push_back(&p);
    } else {
      s += size_chart(p, kind);
    }
  }
  if (!single.empty()) s += single_size_table(single, kind);
  return s + "</section>\n";
}

// The survey: its table (as `xferbench` prints it, with the judgement) and measured against
// expected per path.
std::string survey_section(const std::vector<SurveyEntry>& entries) {
  if (entries.empty()) return {};
  std::string s = "<section id=\"survey\">\n<h2>Survey</h2>\n";
  s += "<table class=\"survey\"><tr><th>path</th><th>size</th><th>figure</th><th>unit</th><th>expected</th>"
       "<th>ratio</th><th>verdict</th><th>note</th></tr>\n";
  std::vector<BulletRow> rows;
  for (const auto& en : entries) {
    const auto opt = [](const std::optional<double>& v) { return v ? format_number(*v) : std::string("-"); };
    std::string note = en.reason;
    if (en.status != "ok") note = fmt::format("{}: {}", en.status == "waived" ? "not measured" : "FAILED", en.reason);
    s += fmt::format(
        "<tr class=\"verdict-{}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
        e(en.verdict.empty() ? "none" : en.verdict), e(en.path), en.size_bytes ? e(format_size(en.size_bytes)) : "-",
        e(opt(en.figure)), e(en.unit), e(opt(en.expected)), e(opt(en.ratio)), e(en.verdict.empty() ? "-" : en.verdict),
        e(note));
    rows.push_back({en.path, en.figure, en.expected, en.unit, en.verdict, note});
  }
  s += "</table>\n<figure class=\"survey-bars\">\n<figcaption>measured against expected, per path</figcaption>\n";
  s += bullet_chart_svg(rows);
  return s + "</figure>\n</section>\n";
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
    if (names.size() < 2) {  // one percentile: a table, not a plot of single points
      s += fmt::format("<figure class=\"latency single-point\" data-job=\"{}\">\n<figcaption>{}{}{} — {}</figcaption>\n"
                       "<table><tr><th>line</th><th>percentile</th><th>{} ({})</th></tr>\n",
                       e(p.job), e(p.job), p.labels.empty() ? "" : ": ", e(labels_text(p.labels)), e(p.quantity),
                       e(p.quantity), e(p.unit));
      for (const auto& l : p.lines) {
        for (const auto& pt : l.points) {
          s += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>\n", e(l.name), e(pt.name),
                           e(format_number(pt.value)));
        }
      }
      s += "</table>\n</figure>\n";
      continue;
    }
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
                               fmt::format("{} {}: {} {}", l.name, pt.name, format_number(pt.value), p.unit),
                               std::nullopt, std::nullopt});
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
    s += heat_map_svg(m.matrix, m.scale_max, m.scale_basis);
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
  s += "<nav>";
  if (!model.survey.empty()) s += "<a href=\"#survey\">survey</a> · ";
  s += "<a href=\"#bandwidth\">bandwidth</a> · <a href=\"#latency-size\">latency against size</a> · "
       "<a href=\"#latency\">latency percentiles</a> · <a href=\"#matrices\">matrices</a>"
       " · <a href=\"#runs\">runs and configuration</a></nav>\n";
  s += survey_section(model.survey);
  s += size_section("bandwidth", "Bandwidth against block size", model.bandwidth,
                    "No case carries a bandwidth metric and a size.", "bandwidth");
  s += size_section("latency-size", "Latency against size", model.latency_by_size,
                    "No case carries a latency and a size.", "latency-size");
  s += latency_section(model.latency);
  s += matrix_section(model.matrices);
  s += runs_section(results);
  s += kSelfCheck;
  s += "</body>\n</html>\n";
  return s;
}

}  // namespace xb
