#pragma once
// What a metric's unit says about it, written down once for `report` and `compare`: whether it is a
// bandwidth (and how many bytes per second one unit is), a rate, a time, and which way is better.
#include <optional>
#include <string>
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

// A count of things (iterations, transfers, blocks, regions, bytes): a unit that is not a rate, a
// time or a percentage. A table prints a whole count without decimals.
bool is_count_unit(std::string_view unit);

// The result document's JSON (schema version 2) writes every metric in the one unit of its family,
// so a reader never needs to know which job wrote it: B/s for a bandwidth (GiB/s,
// GB/s and Gb/s alike), s for a time. A unit of no such family (IO/s, blocks/s, a count, %, bytes)
// is its own canonical unit. The unit shown (GiB/s in copy, Gb/s in link) travels beside it.
struct CanonicalFigure {
  double value = 0;
  std::string unit;
};
CanonicalFigure canonical_figure(double value, std::string_view unit);
// `canonical` (a value in `canonical_unit`) in `display_unit`; nullopt when the two are not units of
// one family (a document that says B/s beside a time).
std::optional<double> from_canonical(double canonical, std::string_view canonical_unit, std::string_view display_unit);

// The bandwidth unit a table shows with --units: binary (GiB/s) or decimal (GB/s).
enum class UnitSystem { binary, decimal };
std::optional<UnitSystem> unit_system_from(std::string_view name);
// Every bandwidth metric of the document shown in `system`'s unit (GiB/s or GB/s, Gb/s included),
// and a judged bandwidth's verdict with it (actual, expected, ceiling). Times, rates, counts and a
// case's matrix (config: its own unit) are left as they are. Nothing is dropped.
void show_bandwidth_in(ResultDocument& doc, UnitSystem system);
// For a table shown in one unit system: drops each `<name>_decimal` bandwidth whose `<name>` is a
// bandwidth of the same case (copy's and kv's GB/s twin of their GiB/s figure), which then says the
// same thing in the same unit. Only these declared twins: equal figures of different names stay.
void drop_decimal_twins(ResultDocument& doc);

enum class Better { higher, lower };

// The metrics a comparison gates on, and which way is better: every rate (higher is better), and
// the latency figures avg and percentiles up to p99 (lower is better). Not compared (nullopt):
// latency min, max and percentiles above p99 (one or a few samples decide them: too noisy for a
// gate), counts, bytes, percentages and run times.
std::optional<Better> gated_direction(const Metric& m);

}  // namespace xb
