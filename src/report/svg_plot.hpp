#pragma once
// Inline SVG for the HTML report, drawn here in C++ so the page needs no script and no network,
// and a test can read every mark: a line chart (lines of points over two axes) and a heat map.
// Every data mark carries class "xb-mark"; each <svg> carries class "xb-plot" and data-marks (how
// many marks it holds), which the page's self-check compares with what the browser laid out.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/matrix.hpp"
#include "report/plot_axis.hpp"

namespace xb {

struct ChartPoint {
  double x = 0;     // in the x axis' data units (a category's index for a category axis)
  double y = 0;
  std::string tip;  // the point's tooltip (plain text; escaped when drawn)
  // The spread of the runs behind y (p10 and p90); a band is drawn where they differ from y.
  std::optional<double> low;
  std::optional<double> high;
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

// A heat map on an absolute scale: a cell's colour is its value's place between 0 and scale_max
// (for a lower-is-better matrix, 0 is best), so two matrices drawn to one scale_max compare. A
// legend shows the scale and says what scale_max is (`basis`). Labels are never clipped: the
// margins grow with the longest row and column names.
std::string heat_map_svg(const Matrix& m, double scale_max, std::string_view basis);

// One row of the survey's bar chart: the figure as a bar, the expected figure as a tick, on the
// scale of the rows in its unit (0 to their largest figure or expected; rows differ in unit).
struct BulletRow {
  std::string name;   // the path
  std::optional<double> figure;
  std::optional<double> expected;
  std::string unit;
  std::string verdict;  // colours the bar: PASS green, WARN amber, FAIL red, else neutral
  std::string note;     // shown where there is no figure
};

std::string bullet_chart_svg(const std::vector<BulletRow>& rows);

}  // namespace xb
