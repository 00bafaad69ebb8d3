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

std::string heat_map_svg(const Matrix& m) {
  std::optional<double> lo, hi;
  std::size_t marks = 0;
  for (const auto& row : m.values) {
    for (const auto& v : row) {
      if (!v) continue;
      ++marks;
      lo = lo ? std::min(*lo, *v) : *v;
      hi = hi ? std::max(*hi, *v) : *v;
    }
  }
  // Cells shrink with the matrix; their values are written in them while there is room.
  const double cell = std::clamp(640.0 / static_cast<double>(std::max(m.rows.size(), m.cols.size())), 14.0, 64.0);
  const bool show_values = cell >= 40;
  const double left = 110, top = 100;
  const double width = left + cell * static_cast<double>(m.cols.size()) + 20;
  const double height = top + cell * static_cast<double>(m.rows.size()) + 40;
  std::string s = fmt::format(
      "<svg class=\"xb-plot xb-heatmap\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" data-marks=\"{2}\">\n",
      num(width), num(height), marks);
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
      double t = *hi > *lo ? (*v - *lo) / (*hi - *lo) : 1.0;
      if (!m.higher_is_better) t = 1 - t;
      const std::string tip = fmt::format("{} → {}: {} {}", m.rows[r], m.cols[c], format_number(*v), m.unit);
      s += fmt::format(
          "<rect class=\"xb-mark cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" data-row=\"{}\" "
          "data-col=\"{}\" data-value=\"{}\"><title>{}</title></rect>\n",
          num(x), num(y), num(cell), num(cell), heat_colour(t), r, c, *v, html_escape(tip));
      if (show_values) {
        s += fmt::format("<text class=\"cell-value\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                         num(x + cell / 2), num(y + cell / 2 + 4), html_escape(format_number(*v)));
      }
    }
  }
  const std::string scale =
      lo ? fmt::format("{} {} … {} {} ({} is better)", format_number(*lo), m.unit, format_number(*hi), m.unit,
                       m.higher_is_better ? "higher" : "lower")
         : std::string("no values");
  s += fmt::format("<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>\n", num(left), num(height - 14),
                   html_escape(scale));
  s += "</svg>\n";
  return s;
}

}  // namespace xb
