#include "report/plot_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/size.hpp"

namespace xb {

double Axis::fraction(double value) const {
  double lo = min, hi = max, v = value;
  if (scale == AxisScale::log2) {
    lo = std::log2(min), hi = std::log2(max), v = std::log2(value);
  } else if (scale == AxisScale::log10) {
    lo = std::log10(min), hi = std::log10(max), v = std::log10(value);
  }
  return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}

std::string axis_label(double value, double step) {
  int decimals = 0;
  if (step > 0 && step < 1) decimals = static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  // 2.5 × 10^k steps need one decimal more than their power of ten.
  if (step > 0) {
    const double scaled = step / std::pow(10.0, std::floor(std::log10(step)));
    if (std::fabs(scaled - 2.5) < 1e-6 && step < 10) ++decimals;
  }
  decimals = std::clamp(decimals, 0, 12);
  if (std::fabs(value) < std::fabs(step) * 1e-9) value = 0;  // no "-0.00" from rounding noise
  return fmt::format("{:.{}f}", value, decimals);
}

Axis zero_based_axis(double max_value) {
  Axis axis;
  axis.scale = AxisScale::linear;
  axis.min = 0;
  if (!(max_value > 0) || !std::isfinite(max_value)) max_value = 1;
  // The smallest nice step that covers max_value in at most 10 steps (at least 4 when it can).
  const double magnitude = std::pow(10.0, std::floor(std::log10(max_value / 10)));
  double step = magnitude * 10;
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (max_value / (m * magnitude) <= 10) {
      step = m * magnitude;
      break;
    }
  }
  const double steps = std::max(1.0, std::ceil(max_value / step - 1e-9));
  axis.max = steps * step;
  for (int i = 0; i <= static_cast<int>(steps); ++i) {
    const double v = i * step;
    axis.ticks.push_back({v, axis_label(v, step)});
  }
  return axis;
}

Axis log2_size_axis(double min_bytes, double max_bytes) {
  Axis axis;
  axis.scale = AxisScale::log2;
  min_bytes = std::max(min_bytes, 1.0);
  max_bytes = std::max(max_bytes, min_bytes);
  int lo = static_cast<int>(std::floor(std::log2(min_bytes) + 1e-9));
  int hi = static_cast<int>(std::ceil(std::log2(max_bytes) - 1e-9));
  if (hi <= lo) {
    lo = std::max(lo - 1, 0);
    hi = lo + 2;
  }
  axis.min = std::ldexp(1.0, lo);
  axis.max = std::ldexp(1.0, hi);
  int every = 1;
  while ((hi - lo) / every + 1 > 10) every *= 2;
  for (int e = lo; e <= hi; e += every) {
    axis.ticks.push_back({std::ldexp(1.0, e), format_size(std::uint64_t{1} << std::min(e, 62))});
  }
  return axis;
}

Axis log10_axis(double min_value, double max_value) {
  Axis axis;
  axis.scale = AxisScale::log10;
  if (!(min_value > 0)) min_value = 1e-3;
  max_value = std::max(max_value, min_value);
  int lo = static_cast<int>(std::floor(std::log10(min_value) + 1e-9));
  int hi = static_cast<int>(std::ceil(std::log10(max_value) - 1e-9));
  if (hi <= lo) hi = lo + 1;
  axis.min = std::pow(10.0, lo);
  axis.max = std::pow(10.0, hi);
  for (int e = lo; e <= hi; ++e) {
    const double v = std::pow(10.0, e);
    axis.ticks.push_back({v, axis_label(v, v)});
  }
  return axis;
}

}  // namespace xb
