// The SVG the page draws: one mark per data point or matrix cell, at the place its axes say,
// names escaped, heat colours from worst (red) to best (green).
#include "report/svg_plot.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>
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

LineChart two_lines() {
  LineChart c;
  c.x = log2_size_axis(4096, 1 << 20);
  c.y = zero_based_axis(10);
  c.x_title = "block size";
  c.y_title = "bandwidth (GiB/s)";
  c.lines = {{"host-a", {{4096, 0, "a"}, {65536, 5, "b"}, {1 << 20, 10, "c"}}}, {"<b>host-b</b>", {{65536, 2.5, "d"}}}};
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

TEST(SvgPlot, HeatMapHasACellPerValueColouredByRank) {
  Matrix m;
  m.rows = {"npu0", "npu1"};
  m.cols = {"npu0", "npu1"};
  m.values = {{std::nullopt, 100.0}, {50.0, std::nullopt}};
  m.unit = "GB/s";
  std::string svg = heat_map_svg(m);
  EXPECT_NE(svg.find("data-marks=\"2\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"xb-mark cell\""), 2u);
  EXPECT_EQ(count(svg, "class=\"cell empty\""), 2u);
  const auto best = svg.find("data-row=\"0\" data-col=\"1\"");
  const auto worst = svg.find("data-row=\"1\" data-col=\"0\"");
  ASSERT_NE(best, std::string::npos);
  ASSERT_NE(worst, std::string::npos);
  EXPECT_NE(svg.rfind("#1a9850", best), std::string::npos);
  EXPECT_GT(svg.rfind("#d73027", worst), best);
  // Lower is better: the colours swap.
  m.higher_is_better = false;
  svg = heat_map_svg(m);
  EXPECT_LT(svg.find("#d73027"), svg.find("data-row=\"0\" data-col=\"1\""));
  EXPECT_GT(svg.find("#1a9850"), svg.find("data-row=\"0\" data-col=\"1\""));
}

}  // namespace
}  // namespace xb
