#pragma once
// Axis scaling for the report's plots: where a value falls along an axis (0 = start, 1 = end) and
// which ticks to label. Pure arithmetic, unit-tested on its own.
#include <string>
#include <vector>

namespace xb {

enum class AxisScale { linear, log2, log10 };

struct AxisTick {
  double value = 0;
  std::string label;
};

struct Axis {
  AxisScale scale = AxisScale::linear;
  double min = 0;  // the ends of the axis, in data units (powers of the base for log axes)
  double max = 1;
  std::vector<AxisTick> ticks;

  // Position of `value` along the axis: 0 at min, 1 at max (outside [0, 1] when off the axis).
  double fraction(double value) const;
};

// A linear axis from 0 up to a "nice" number (1, 2, 2.5 or 5 times a power of ten) at or above
// max_value, with 4 to 10 ticks labelled with as many decimals as the step needs. Bandwidths start
// at zero so that heights compare honestly.
Axis zero_based_axis(double max_value);

// A log2 axis of byte sizes: from the power of two at or below min_bytes to the one at or above
// max_bytes (one more each side when they coincide), ticks on powers of two labelled "4K", "1M",
// every second or fourth one when there would be more than 10.
Axis log2_size_axis(double min_bytes, double max_bytes);

// A log10 axis from the decade at or below min_value to the one at or above max_value (both > 0),
// ticks on every decade.
Axis log10_axis(double min_value, double max_value);

// A tick label: `value` with the decimals a step of `step` needs ("0.25", "2", "1500").
std::string axis_label(double value, double step);

}  // namespace xb
