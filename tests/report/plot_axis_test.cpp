// Axis scaling: nice linear ranges from zero, log2 size axes, log10 axes, tick labels.
#include "report/plot_axis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace xb {
namespace {

void expect_zero_based(double value) {
  const Axis a = zero_based_axis(value);
  SCOPED_TRACE(value);
  EXPECT_EQ(a.min, 0);
  EXPECT_GE(a.max, value);
  // Never more than one step of headroom, and 2..11 ticks from 0 to max.
  ASSERT_GE(a.ticks.size(), 2u);
  ASSERT_LE(a.ticks.size(), 11u);
  const double step = a.ticks[1].value - a.ticks[0].value;
  EXPECT_LT(a.max - value, step + 1e-12);
  EXPECT_EQ(a.ticks.front().value, 0);
  EXPECT_DOUBLE_EQ(a.ticks.back().value, a.max);
  for (const auto& t : a.ticks) EXPECT_NEAR(std::stod(t.label), t.value, step * 1e-6) << t.label;
  EXPECT_DOUBLE_EQ(a.fraction(0), 0);
  EXPECT_DOUBLE_EQ(a.fraction(a.max), 1);
  EXPECT_LE(a.fraction(value), 1);
}

TEST(PlotAxis, ZeroBasedAxisIsNiceAndCoversTheValue) {
  for (const double v : {7.3, 0.42, 1.0, 10.0, 123456.0, 0.0031, 99.9, 2.4, 16.729}) expect_zero_based(v);
  const Axis a = zero_based_axis(7.3);
  EXPECT_EQ(a.max, 8);
  EXPECT_EQ(a.ticks.size(), 9u);
  EXPECT_EQ(a.ticks[3].label, "3");
  EXPECT_EQ(zero_based_axis(0.42).ticks[1].label, "0.05");
}

TEST(PlotAxis, ZeroBasedAxisOfNothingIsStillAnAxis) {
  const Axis a = zero_based_axis(0);
  EXPECT_GT(a.max, 0);
  EXPECT_GE(a.ticks.size(), 2u);
}

TEST(PlotAxis, Log2SizeAxisPutsPowersOfTwoEvenly) {
  const Axis a = log2_size_axis(4096, 1 << 20);
  EXPECT_EQ(a.min, 4096);
  EXPECT_EQ(a.max, 1 << 20);
  ASSERT_EQ(a.ticks.size(), 9u);
  EXPECT_EQ(a.ticks.front().label, "4K");
  EXPECT_EQ(a.ticks[4].label, "64K");
  EXPECT_EQ(a.ticks.back().label, "1M");
  EXPECT_DOUBLE_EQ(a.fraction(65536), 0.5);
  EXPECT_DOUBLE_EQ(a.fraction(4096), 0);
  EXPECT_DOUBLE_EQ(a.fraction(1 << 20), 1);
}

TEST(PlotAxis, Log2SizeAxisOfOneSizeCentresIt) {
  const Axis a = log2_size_axis(4096, 4096);
  EXPECT_DOUBLE_EQ(a.fraction(4096), 0.5);
  ASSERT_EQ(a.ticks.size(), 3u);
  EXPECT_EQ(a.ticks[1].label, "4K");
}

TEST(PlotAxis, Log2SizeAxisThinsItsTicks) {
  const Axis a = log2_size_axis(1, std::ldexp(1.0, 40));
  EXPECT_LE(a.ticks.size(), 10u);
  EXPECT_EQ(a.ticks.front().label, "1");
  EXPECT_DOUBLE_EQ(a.fraction(std::ldexp(1.0, 20)), 0.5);
}

TEST(PlotAxis, Log10AxisSpansWholeDecades) {
  const Axis a = log10_axis(3, 4000);
  EXPECT_DOUBLE_EQ(a.min, 1);
  EXPECT_DOUBLE_EQ(a.max, 10000);
  ASSERT_EQ(a.ticks.size(), 5u);
  EXPECT_EQ(a.ticks[0].label, "1");
  EXPECT_EQ(a.ticks[3].label, "1000");
  EXPECT_NEAR(a.fraction(100), 0.5, 1e-12);
  EXPECT_EQ(log10_axis(0.02, 0.5).ticks.front().label, "0.01");
}

TEST(PlotAxis, LabelsCarryTheDecimalsTheStepNeeds) {
  EXPECT_EQ(axis_label(2.5, 2.5), "2.5");
  EXPECT_EQ(axis_label(0.25, 0.25), "0.25");
  EXPECT_EQ(axis_label(1500, 500), "1500");
  EXPECT_EQ(axis_label(0.3, 0.1), "0.3");
  EXPECT_EQ(axis_label(-0.0000000001, 0.1), "0.0");
}

}  // namespace
}  // namespace xb
