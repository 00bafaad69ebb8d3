// The SVG the page draws: one mark per data point or matrix cell, at the place its axes say,
// names escaped, heat colours from worst (red) to best (green).
#include "report/svg_plot.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>
#include "report/renderer.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

struct Circle {
  double cx, cy;
};

std::vector<Circle> circles(const std::string& svg) {
  static const std::regex re(R"re(<circle class="xb-mark point" cx="([0-9.]+)" cy="([0-9.]+)")re");
  std::vector<Circle> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back({std::stod((*it)[1]), std::stod((*it)[2])});
  }
  return out;
}

using test::count;

ChartPoint pt(double x, double y, std::string tip) { return {x, y, std::move(tip), std::nullopt, std::nullopt}; }

LineChart two_lines() {
  LineChart c;
  c.x = log2_size_axis(4096, 1 << 20);
  c.y = zero_based_axis(10);
  c.x_title = "block size";
  c.y_title = "bandwidth (GiB/s)";
  c.lines = {{"host-a", {pt(4096, 0, "a"), pt(65536, 5, "b"), pt(1 << 20, 10, "c")}},
             {"<b>host-b</b>", {pt(65536, 2.5, "d")}}};
  return c;
}

TEST(SvgPlot, EveryPointIsOneMarkWhereTheAxesPutIt) {
  const std::string svg = line_chart_svg(two_lines());
  EXPECT_NE(svg.find("data-marks=\"4\""), std::string::npos);
  const auto c = circles(svg);
  ASSERT_EQ(c.size(), 4u);
  // Line a: left bottom, middle, right top; x grows with size, y (screen) shrinks with value.
  EXPECT_LT(c[0].cx, c[1].cx);
  EXPECT_LT(c[1].cx, c[2].cx);
  EXPECT_NEAR(c[1].cx - c[0].cx, c[2].cx - c[1].cx, 0.02);  // 4K..64K..1M: equal log2 steps
  EXPECT_GT(c[0].cy, c[1].cy);
  EXPECT_GT(c[1].cy, c[2].cy);
  EXPECT_NEAR(c[0].cy - c[1].cy, c[1].cy - c[2].cy, 0.02);  // 0, 5, 10 on a linear axis
  // Point d sits at the same x as b, a quarter of the way up.
  EXPECT_NEAR(c[3].cx, c[1].cx, 0.01);
  EXPECT_NEAR((c[0].cy - c[3].cy) / (c[0].cy - c[2].cy), 0.25, 1e-3);
  EXPECT_EQ(count(svg, "<polyline"), 1u);  // a one-point line has no segment
  EXPECT_EQ(count(svg, "class=\"band\""), 0u);  // no runs' spread given: no band
}

TEST(SvgPlot, ASpreadOfRunsIsABandAroundItsLine) {
  LineChart chart = two_lines();
  chart.lines[0].points[1].low = 4;
  chart.lines[0].points[1].high = 6;
  const std::string svg = line_chart_svg(chart);
  ASSERT_EQ(count(svg, "class=\"band\""), 1u);  // line a only; line b has no spread
  // The band runs along p90 left to right, then back along p10: six corners, the middle ones at
  // 6 and 4 on the axis, the others at the points themselves (one run).
  static const std::regex corners(R"re(class="band"[^>]*points="([^"]+)")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, corners));
  std::vector<double> ys;
  const std::string text = m[1];
  static const std::regex pair(R"re([0-9.]+,([0-9.]+))re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pair); it != std::sregex_iterator(); ++it) {
    ys.push_back(std::stod((*it)[1]));
  }
  ASSERT_EQ(ys.size(), 6u);
  const auto c = circles(svg);
  EXPECT_NEAR(ys[0], c[0].cy, 0.01);
  EXPECT_NEAR(ys[2], c[2].cy, 0.01);
  // 6 is 0.6 of the way up, 4 is 0.4; the median point (5) between them.
  const double bottom = c[0].cy, top = c[2].cy;
  EXPECT_NEAR((bottom - ys[1]) / (bottom - top), 0.6, 1e-3);
  EXPECT_NEAR((bottom - ys[4]) / (bottom - top), 0.4, 1e-3);
}

TEST(SvgPlot, NamesAndTitlesAreEscaped) {
  LineChart chart = two_lines();
  chart.y_title = "</svg><script>";
  chart.lines[0].points[0].tip = "\"><img>";
  const std::string svg = line_chart_svg(chart);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_EQ(svg.find("<img>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b&gt;host-b&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(count(svg, "</svg>"), 1u);
}

TEST(SvgPlot, CategoryAxisSpacesNamesEvenly) {
  const Axis a = category_axis({"min", "p50", "p99", "max"});
  ASSERT_EQ(a.ticks.size(), 4u);
  EXPECT_EQ(a.ticks[2].label, "p99");
  EXPECT_DOUBLE_EQ(a.fraction(0), 0.125);
  EXPECT_DOUBLE_EQ(a.fraction(3), 0.875);
}

TEST(SvgPlot, HeatColoursRunFromRedToGreen) {
  EXPECT_EQ(heat_colour(0), "#d73027");
  EXPECT_EQ(heat_colour(1), "#1a9850");
  EXPECT_EQ(heat_colour(0.5), "#fee08b");
  EXPECT_EQ(heat_colour(-3), "#d73027");
  EXPECT_EQ(heat_colour(7), "#1a9850");
}

// The fill of the cell at row r, column c.
std::string cell_fill(const std::string& svg, int r, int c) {
  const std::regex re(fmt::format(R"re(fill="(#[0-9a-f]{{6}})" data-row="{}" data-col="{}")re", r, c));
  std::smatch m;
  return std::regex_search(svg, m, re) ? m[1].str() : std::string("none");
}

TEST(SvgPlot, HeatMapColoursOnAnAbsoluteScaleWithALegend) {
  Matrix m;
  m.rows = {"npu0", "npu1"};
  m.cols = {"npu0", "npu1"};
  m.values = {{std::nullopt, 100.0}, {90.0, std::nullopt}};
  m.unit = "GB/s";
  std::string svg = heat_map_svg(m, 100, "the largest value");
  EXPECT_NE(svg.find("data-marks=\"2\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"xb-mark cell\""), 2u);
  EXPECT_EQ(count(svg, "class=\"cell empty\""), 3u);  // two cells and the legend's swatch
  // 10% apart is not red against green: 100 of 100 is the best colour, 90 is 0.9 of the way.
  EXPECT_EQ(cell_fill(svg, 0, 1), heat_colour(1));
  EXPECT_EQ(cell_fill(svg, 1, 0), heat_colour(0.9));
  // The legend: a ramp of 20 steps from 0 to the scale's top, labelled, and what the top is.
  EXPECT_EQ(count(svg, "height=\"12\" fill=\"#"), 20u);
  EXPECT_NE(svg.find(">0</text>"), std::string::npos);
  EXPECT_NE(svg.find(">100</text>"), std::string::npos);
  EXPECT_NE(svg.find("higher is better; scale 0 to " + format_number(100) + " GB/s: the largest value"),
            std::string::npos);
  // Against a higher top (another matrix, or the expected figure) the same values are worse.
  svg = heat_map_svg(m, 200, "the case's expected figure");
  EXPECT_EQ(cell_fill(svg, 0, 1), heat_colour(0.5));
  EXPECT_EQ(cell_fill(svg, 1, 0), heat_colour(0.45));
  // Lower is better: 0 is best.
  m.higher_is_better = false;
  svg = heat_map_svg(m, 100, "x");
  EXPECT_EQ(cell_fill(svg, 0, 1), heat_colour(0));
  EXPECT_EQ(cell_fill(svg, 1, 0), heat_colour(0.1));
  // A scale of nothing: zero bandwidth is the worst colour, zero time the best.
  m.values = {{std::nullopt, 0.0}, {0.0, std::nullopt}};
  m.higher_is_better = true;
  EXPECT_EQ(cell_fill(heat_map_svg(m, 0, "x"), 0, 1), heat_colour(0));
  m.higher_is_better = false;
  EXPECT_EQ(cell_fill(heat_map_svg(m, 0, "x"), 0, 1), heat_colour(1));
}

TEST(SvgPlot, HeatMapMarginsHoldTheLongestNames) {
  Matrix m;
  const std::string long_name(60, 'n');
  m.rows = {"a", long_name};
  m.cols = {long_name, "b"};
  m.values = {{1.0, 2.0}, {3.0, 4.0}};
  m.unit = "GB/s";
  const std::string svg = heat_map_svg(m, 4, "x");
  // The first cell starts right of the longest row name (60 characters at about 7 px) and below
  // the longest column name, drawn at 45 degrees.
  static const std::regex first(R"re(<rect class="xb-mark cell" x="([0-9.]+)" y="([0-9.]+)")re");
  std::smatch cell;
  ASSERT_TRUE(std::regex_search(svg, cell, first));
  EXPECT_GE(std::stod(cell[1]), 60 * 7.0);
  EXPECT_GE(std::stod(cell[2]), 60 * 7.0 / std::sqrt(2.0));
  static const std::regex view(R"re(viewBox="0 0 ([0-9.]+) ([0-9.]+)")re");
  std::smatch box;
  ASSERT_TRUE(std::regex_search(svg, box, view));
  // The column name reaches right of its cell by as much as it rises: inside the picture.
  EXPECT_GE(std::stod(box[1]), std::stod(cell[1]) + 60 * 7.0 / std::sqrt(2.0));
}

TEST(SvgPlot, SurveyBarsShareAScalePerUnitAndMarkTheExpectedFigure) {
  const std::vector<BulletRow> rows{
      {"H2D", 20.0, 25.0, "GiB/s", "WARN", ""},
      {"D2H", 10.0, std::nullopt, "GiB/s", "unjudged", ""},
      {"randread", 90000.0, std::nullopt, "IO/s", "", ""},
      {"P2P", std::nullopt, std::nullopt, "", "", "not measured: needs two devices"},
  };
  const std::string svg = bullet_chart_svg(rows);
  EXPECT_NE(svg.find("data-marks=\"3\""), std::string::npos);
  static const std::regex bar(R"re(<rect class="xb-mark bar" x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)"[^>]*fill="(#[0-9A-Fa-f]{6})")re");
  std::vector<std::pair<double, std::string>> bars;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it) {
    bars.emplace_back(std::stod((*it)[1]), (*it)[2]);
  }
  ASSERT_EQ(bars.size(), 3u);
  // H2D and D2H on one GiB/s scale: half as long; the IO/s row on its own.
  EXPECT_NEAR(bars[1].first / bars[0].first, 0.5, 1e-3);
  EXPECT_NEAR(bars[2].first / bars[0].first, 25.0 / 20.0, 1e-3);  // its own top; H2D's top is 25
  EXPECT_EQ(bars[0].second, "#E69F00");  // WARN
  EXPECT_EQ(count(svg, "class=\"expected\""), 1u);
  EXPECT_NE(svg.find(format_number(20) + " GiB/s · expected " + format_number(25) + " · WARN"), std::string::npos);
  EXPECT_NE(svg.find("not measured: needs two devices"), std::string::npos);
}

}  // namespace
}  // namespace xb
