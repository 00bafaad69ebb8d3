#pragma once
// What a metric's unit says about it, written down once for `report` and `compare`: whether it is a
// bandwidth (and how many bytes per second one unit is), a rate, a time, and which way is better.
#include <optional>
#include <string_view>

#include "core/result.hpp"

namespace xb {

// Bytes per second in one unit of a bandwidth: GiB/s = 2^30, GB/s = 1e9, Gb/s = 1e9 / 8, MiB/s,
// MB/s, Mb/s, KiB/s, KB/s, Kb/s, B/s likewise. nullopt when the unit is not a bandwidth.
std::optional<double> bandwidth_unit_bytes(std::string_view unit);

// Seconds in one unit of a time: ns, us, ms, s. nullopt otherwise.
std::optional<double> time_unit_seconds(std::string_view unit);

// Anything per second: a bandwidth, IO/s, blocks/s, transfers/s.
bool is_rate_unit(std::string_view unit);

enum class Better { higher, lower };

// The metrics a comparison gates on, and which way is better: every rate (higher is better), and
// the latency figures avg and percentiles up to p99 (lower is better). Not compared (nullopt):
// latency min, max and percentiles above p99 (one or a few samples decide them: too noisy for a
// gate), counts, bytes, percentages and run times.
std::optional<Better> gated_direction(const Metric& m);

}  // namespace xb
