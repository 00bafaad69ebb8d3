#include "report/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "report/html_escape.hpp"
#include "report/renderer.hpp"

namespace xb {
namespace {

// Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
constexpr std::array<const char*, 7> kLineColours{"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                  "#E69F00", "#56B4E9", "#000000"};

// Chart geometry in SVG user units; the legend sits right of the plot area.
constexpr double kWidth = 840, kHeight = 380;
constexpr double kLeft = 70, kRight = 290, kTop = 20, kBottom = 56;
constexpr double kLegendRow = 18;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

std::string num(double v) { return fmt::format("{:.2f}", v); }

}  // namespace

Axis category_axis(const std::vector<std::string>& names) {
  Axis a;
  a.scale = AxisScale::linear;
  a.min = -0.5;
  a.max = static_cast<double>(names.size()) - 0.5;
  for (std::size_t i = 0; i < names.size(); ++i) a.ticks.push_back({static_cast<double>(i), names[i]});
  return a;
}

std::string line_chart_svg(const LineChart& chart) {
  std::size_t marks = 0;
  for (const auto& l : chart.lines) marks += l.points.size();
  // Taller than the plot when the legend needs it (many sizes on one latency plot).
  const double height = std::max(kHeight, kTop + 8 + kLegendRow * static_cast<double>(chart.lines.size()));
  std::string s = fmt::format(
      "<svg class=\"xb-plot xb-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" data-marks=\"{2}\">\n",
      kWidth, height, marks);
  const auto px = [&](double x) { return kLeft + chart.x.fraction(x) * kPlotW; };
  const auto py = [&](double y) { return kTop + (1 - chart.y.fraction(y)) * kPlotH; };
  // Grid and tick labels.
  for (const auto& t : chart.y.ticks) {
    const double y = py(t.value);
    s += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", num(kLeft), num(y),
                     num(kLeft + kPlotW), num(y));
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", num(kLeft - 6),
                     num(y + 4), html_escape(t.label));
  }
  for (const auto& t : chart.x.ticks) {
    const double x = px(t.value);
    s += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", num(x), num(kTop), num(x),
                     num(kTop + kPlotH));
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", num(x),
                     num(kTop + kPlotH + 16), html_escape(t.label));
  }
  s += fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", num(kLeft), num(kTop),
                   num(kPlotW), num(kPlotH));
  s += fmt::format("<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                   num(kLeft + kPlotW / 2), num(kHeight - 10), html_escape(chart.x_title));
  s += fmt::format("<text class=\"axis-title\" transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                   num(kTop + kPlotH / 2), html_escape(chart.y_title));
  // Lines, their points, and the legend.
  for (std::size_t i = 0; i < chart.lines.size(); ++i) {
    const auto& line = chart.lines[i];
    const char* colour = kLineColours[i % kLineColours.size()];
    // The p10-p90 band of the runs behind each point, under the line.
    const bool banded = std::any_of(line.points.begin(), line.points.end(), [](const ChartPoint& p) {
      return p.low && p.high && (*p.low != p.y || *p.high != p.y);
    });
    if (banded) {
      std::string outline;
      for (const auto& p : line.points) outline += fmt::format("{},{} ", num(px(p.x)), num(py(p.high.value_or(p.y))));
      for (auto it = line.points.rbegin(); it != line.points.rend(); ++it) {
        outline += fmt::format("{},{} ", num(px(it->x)), num(py(it->low.value_or(it->y))));
      }
      s += fmt::format("<polygon class=\"band\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"{}\" stroke-opacity=\"0.35\" "
                       "points=\"{}\"/>\n",
                       colour, colour, outline);
    }
    std::string path;
    for (const auto& p : line.points) path += fmt::format("{},{} ", num(px(p.x)), num(py(p.y)));
    s += fmt::format("<g class=\"line\" data-line=\"{}\">\n", html_escape(line.name));
    if (line.points.size() > 1) {
      s += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", colour, path);
    }
    for (const auto& p : line.points) {
      s += fmt::format(
          "<circle class=\"xb-mark point\" cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\" data-x=\"{}\" data-y=\"{}\"><title>{}</title></circle>\n",
          num(px(p.x)), num(py(p.y)), colour, p.x, p.y, html_escape(p.tip));
    }
    s += "</g>\n";
    const double ly = kTop + 8 + kLegendRow * static_cast<double>(i);
    const double lx = kLeft + kPlotW + 14;
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"3\"/>\n", num(lx),
                     num(ly), num(lx + 18), num(ly), colour);
    s += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>\n", num(lx + 24), num(ly + 4),
                     html_escape(line.name));
  }
  s += "</svg>\n";
  return s;
}

std::string heat_colour(double t) {
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
  struct Rgb {
    double r, g, b;
  };
  constexpr Rgb worst{215, 48, 39}, middle{254, 224, 139}, best{26, 152, 80};
  const auto mix = [](Rgb a, Rgb b, double f) {
    return Rgb{a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
  };
  const Rgb c = t < 0.5 ? mix(worst, middle, t * 2) : mix(middle, best, (t - 0.5) * 2);
  const auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 255.0))); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(c.r), byte(c.g), byte(c.b));
}

namespace {

// About how wide a label of `chars` characters draws at 12px in a sans-serif face: generous, so a
// label is never clipped (a little white space costs nothing).
double text_width(std::string_view text) { return 7.4 * static_cast<double>(text.size()) + 4; }

double longest(const std::vector<std::string>& names) {
  double w = 0;
  for (const auto& n : names) w = std::max(w, text_width(n));
  return w;
}

}  // namespace

std::string heat_map_svg(const Matrix& m, double scale_max, std::string_view basis) {
  std::size_t marks = 0;
  for (const auto& row : m.values) {
    for (const auto& v : row) marks += v ? 1 : 0;
  }
  // Cells shrink with the matrix; their values are written in them while there is room.
  const double cell = std::clamp(640.0 / static_cast<double>(std::max(m.rows.size(), m.cols.size())), 14.0, 64.0);
  const bool show_values = cell >= 40;
  // Column names are drawn at -45 degrees from their cell's middle: they rise by w / sqrt(2) and
  // reach right by as much.
  const double col_reach = longest(m.cols) / std::sqrt(2.0);
  const double left = std::max(60.0, longest(m.rows) + 10), top = col_reach + 16;
  const double grid_w = cell * static_cast<double>(m.cols.size()), grid_h = cell * static_cast<double>(m.rows.size());
  const double legend_h = 64;
  const double width = std::max(left + grid_w + std::max(20.0, col_reach - cell / 2), left + 420);
  const double height = top + grid_h + legend_h;
  std::string s = fmt::format(
      "<svg class=\"xb-plot xb-heatmap\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" data-marks=\"{2}\" data-scale-max=\"{3}\">\n",
      num(width), num(height), marks, scale_max);
  const auto place = [&](double v) {
    // A scale of nothing (every value 0) places every value at 0, not at the top.
    const double f = scale_max > 0 ? v / scale_max : 0.0;
    return m.higher_is_better ? f : 1 - f;
  };
  for (std::size_t c = 0; c < m.cols.size(); ++c) {
    const double x = left + cell * (static_cast<double>(c) + 0.5);
    s += fmt::format("<text class=\"tick\" transform=\"translate({} {}) rotate(-45)\">{}</text>\n", num(x),
                     num(top - 6), html_escape(m.cols[c]));
  }
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    const double y = top + cell * static_cast<double>(r);
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", num(left - 6),
                     num(y + cell / 2 + 4), html_escape(m.rows[r]));
    for (std::size_t c = 0; c < m.cols.size(); ++c) {
      const double x = left + cell * static_cast<double>(c);
      const auto& v = m.values[r][c];
      if (!v) {
        s += fmt::format("<rect class=\"cell empty\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", num(x), num(y),
                         num(cell), num(cell));
        continue;
      }
      const std::string tip = fmt::format("{} → {}: {} {}", m.rows[r], m.cols[c], format_number(*v), m.unit);
      s += fmt::format(
          "<rect class=\"xb-mark cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" data-row=\"{}\" "
          "data-col=\"{}\" data-value=\"{}\"><title>{}</title></rect>\n",
          num(x), num(y), num(cell), num(cell), heat_colour(place(*v)), r, c, *v, html_escape(tip));
      if (show_values) {
        s += fmt::format("<text class=\"cell-value\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                         num(x + cell / 2), num(y + cell / 2 + 4), html_escape(format_number(*v)));
      }
    }
  }
  // The legend: the colour ramp from 0 to scale_max in 20 steps, its ends and middle labelled, a
  // grey swatch for cells not measured, and what the scale's top is.
  const double ly = top + grid_h + 14, ramp_w = 240, step = ramp_w / 20;
  s += "<g class=\"legend-ramp\">\n";
  for (int i = 0; i < 20; ++i) {
    const double mid = (i + 0.5) / 20;
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"12\" fill=\"{}\"/>\n", num(left + step * i), num(ly),
                     num(step + 0.5), heat_colour(m.higher_is_better ? mid : 1 - mid));
  }
  for (const double f : {0.0, 0.5, 1.0}) {
    s += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     num(left + ramp_w * f), num(ly + 26), html_escape(axis_label(scale_max * f, scale_max / 2)));
  }
  s += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>\n", num(left + ramp_w + 14), num(ly + 10),
                   html_escape(m.unit));
  s += fmt::format("<rect class=\"cell empty\" x=\"{}\" y=\"{}\" width=\"12\" height=\"12\"/>", num(left + ramp_w + 70),
                   num(ly));
  s += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\">not measured</text>\n", num(left + ramp_w + 86),
                   num(ly + 10));
  s += "</g>\n";
  s += fmt::format("<text class=\"legend scale-basis\" x=\"{}\" y=\"{}\">{} is better; scale 0 to {} {}: {}</text>\n",
                   num(left), num(ly + 44), m.higher_is_better ? "higher" : "lower", format_number(scale_max),
                   html_escape(m.unit), html_escape(basis));
  s += "</svg>\n";
  return s;
}

namespace {

// What a survey row says beside its bar (or in its place).
std::string bullet_text(const BulletRow& r) {
  if (!r.figure) return r.note;
  std::string text = fmt::format("{} {}", format_number(*r.figure), r.unit);
  text += r.expected ? fmt::format(" · expected {}", format_number(*r.expected)) : " · no expected figure";
  if (!r.verdict.empty()) text += " · " + r.verdict;
  return text;
}

}  // namespace

std::string bullet_chart_svg(const std::vector<BulletRow>& rows) {
  std::vector<std::string> names, texts;
  std::size_t marks = 0;
  for (const auto& r : rows) {
    names.push_back(r.name);
    texts.push_back(bullet_text(r));
    marks += r.figure ? 1 : 0;
  }
  constexpr double kRow = 30, kBarW = 420;
  const double left = longest(names) + 12;
  const double width = left + kBarW + std::max(560.0, longest(texts) + 20);
  const double height = kRow * static_cast<double>(rows.size()) + 30;
  std::string s = fmt::format(
      "<svg class=\"xb-plot xb-bullet\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" data-marks=\"{2}\">\n",
      num(width), num(height), marks);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const double y = 10 + kRow * static_cast<double>(i);
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", num(left - 8),
                     num(y + 15), html_escape(r.name));
    if (!r.figure) {
      s += fmt::format("<text class=\"note\" x=\"{}\" y=\"{}\">{}</text>\n", num(left), num(y + 15),
                       html_escape(texts[i]));
      continue;
    }
    // The row's scale: 0 to the largest figure or expected of the rows in its unit, with room to
    // spare, so the paths of one unit compare by length.
    double top = 0;
    for (const auto& other : rows) {
      if (other.figure && other.unit == r.unit) top = std::max({top, *other.figure, other.expected.value_or(0)});
    }
    top *= 1.15;
    const auto px = [&](double v) { return left + (top > 0 ? v / top : 0) * kBarW; };
    s += fmt::format("<rect class=\"track\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"18\" fill=\"#f0f0f0\"/>\n", num(left),
                     num(y + 2), num(kBarW));
    const char* colour = r.verdict == "PASS" ? "#1a9850" : r.verdict == "WARN" ? "#E69F00"
                       : r.verdict == "FAIL" ? "#d73027" : "#0072B2";
    std::string tip = fmt::format("{}: {} {}", r.name, format_number(*r.figure), r.unit);
    if (r.expected) tip += fmt::format(", expected {} {}", format_number(*r.expected), r.unit);
    if (!r.verdict.empty()) tip += " (" + r.verdict + ")";
    s += fmt::format(
        "<rect class=\"xb-mark bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"12\" fill=\"{}\" data-value=\"{}\"><title>{}</title></rect>\n",
        num(left), num(y + 5), num(px(*r.figure) - left), colour, *r.figure, html_escape(tip));
    if (r.expected) {
      s += fmt::format(
          "<line class=\"expected\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#222\" stroke-width=\"3\" "
          "data-value=\"{3}\"><title>expected {4} {5}</title></line>\n",
          num(px(*r.expected)), num(y), num(y + 22), *r.expected, html_escape(format_number(*r.expected)),
          html_escape(r.unit));
    }
    s += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>\n", num(left + kBarW + 10), num(y + 15),
                     html_escape(texts[i]));
  }
  s += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\">bar: measured; black tick: expected; rows of one unit share "
                   "a scale from 0</text>\n",
                   num(left), num(height - 6));
  s += "</svg>\n";
  return s;
}

}  // namespace xb
