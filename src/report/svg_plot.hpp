#pragma once
// Inline SVG for the HTML report, drawn here in C++ so the page needs no script and no network,
// and a test can read every mark: a line chart (lines of points over two axes) and a heat map.
// Every data mark carries class "xb-mark"; each <svg> carries class "xb-plot" and data-marks (how
// many marks it holds), which the page's self-check compares with what the browser laid out.
#include <string>
#include <vector>

#include "core/matrix.hpp"
#include "report/plot_axis.hpp"

namespace xb {

struct ChartPoint {
  double x = 0;     // in the x axis' data units (a category's index for a category axis)
  double y = 0;
  std::string tip;  // the point's tooltip (plain text; escaped when drawn)
};

struct ChartLine {
  std::string name;  // legend entry
  std::vector<ChartPoint> points;
};

struct LineChart {
  std::string x_title;
  std::string y_title;
  Axis x;
  Axis y;
  std::vector<ChartLine> lines;
};

// An axis of named categories at 0, 1, … n-1 (percentile names on a latency chart).
Axis category_axis(const std::vector<std::string>& names);

std::string line_chart_svg(const LineChart& chart);

// A cell's colour for a value at `t` of the way from the worst value (0) to the best (1): red
// through yellow to green. "#rrggbb".
std::string heat_colour(double t);

std::string heat_map_svg(const Matrix& m);

}  // namespace xb
