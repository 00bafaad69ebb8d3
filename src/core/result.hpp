#pragma once
// The one result model every job fills and every renderer reads (google/benchmark's Run, widened).
// A ResultDocument is versioned: kResultSchemaVersion changes whenever a field changes meaning.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/stats.hpp"

namespace xb {

// Version 2: a metric's value and unit are its family's one unit (B/s, s), the
// unit shown beside them (display_value, display_unit). Version 1 documents (value as shown) are
// still read.
inline constexpr int kResultSchemaVersion = 2;
inline constexpr int kOldestResultSchemaVersion = 1;
inline constexpr const char* kResultSchemaName = "xferbench.result";

// One measured quantity over iterations (e.g. "copy" time per iteration), with its summary.
struct Series {
  std::string name;             // "submit", "copy"
  std::string unit;             // "us"
  std::vector<double> samples;  // one per timed iteration, in order
  Summary summary;              // of samples
};

// A derived figure: states how it was computed and in which unit.
struct Metric {
  std::string name;     // "bandwidth"
  double value = 0;
  std::string unit;     // "GiB/s" (2^30 bytes per second)
  std::string formula;  // "size * count / copy.avg"
};

// What one rank (a forked device process, an MPI rank) measured on its own.
struct RankResult {
  int rank = 0;
  std::string device;  // "cpu::device::3"
  std::vector<Series> series;
};

enum class CaseStatus { ok, waived, failed };

// A case's figure next to what it should be (docs/judge.md): set only where the run
// judges (`--judge`). Figures are in the judged metric's own unit.
struct CaseVerdict {
  std::string metric;               // "bandwidth"
  std::string unit;                 // the metric's: "GiB/s"
  double actual = 0;
  std::optional<double> expected;   // null: unjudged (why says so)
  std::optional<double> ratio;      // actual / expected
  std::string verdict;              // "PASS", "WARN", "FAIL" or "unjudged"
  std::string reason;               // unjudged: why (no figure, not a bandwidth, no rule applies)
  std::string rule;                 // "copy.h2d bandwidth ≥ 0.8 × ceiling"
  std::string layer;                // "built-in", "SKU file", "site file", "command line"
  std::string origin;               // "site.yaml:4"
  std::optional<double> ceiling;    // the theoretical ceiling, where known
  std::string ceiling_derivation;   // how it was derived, or why it is unknown
  std::vector<std::string> warnings;  // links trained below their capability, and the like
  std::string sku;                  // what the SKU file says of this machine: its rules, or "no SKU layer"
};

struct CaseResult {
  std::string job;    // "copy"
  std::string name;   // a stable identifier: "h2d_pinned_to_device_memcpy"
  std::string title;  // one line saying what was done
  CaseStatus status = CaseStatus::ok;
  std::string status_reason;  // why waived or failed
  // Labels that identify the case in tables and comparisons, in display order.
  std::vector<std::pair<std::string, std::string>> labels;
  nlohmann::json config;           // every parameter of the case, fully resolved
  std::vector<Series> series;      // aggregate over ranks, per iteration
  std::vector<RankResult> ranks;   // per rank, per iteration
  std::vector<Metric> metrics;
  std::optional<CaseVerdict> verdict;

  const Series* find_series(std::string_view series_name) const;
  const Metric* find_metric(std::string_view metric_name) const;
  std::string label(std::string_view key) const;
};

struct MachineInfo {
  std::string hostname;
  std::string kernel;
  std::string cpu_model;
  unsigned logical_cpus = 0;
  int numa_nodes = 1;
  std::uint64_t memory_bytes = 0;
};

struct ResultDocument {
  int schema_version = kResultSchemaVersion;
  std::string program_version;
  std::string started_at;  // UTC, ISO 8601
  MachineInfo machine;
  std::vector<std::string> command_line;
  // The variables that change what a run does (core/run_environment), sorted by name.
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<CaseResult> cases;
  // Empty for a run that ended as planned. Otherwise why it ended early ("interrupted by SIGINT",
  // "failed: …"): `cases` then holds those complete by then, unjudged.
  std::string partial;
};

Series make_series(std::string name, std::string unit, std::vector<double> samples);
const char* to_string(CaseStatus status);

// One case as the result document writes it (an element of "cases"), and read back: nlohmann's
// ADL pair, so a case also travels between ranks as a typed value (runtime/rank_values.hpp).
void to_json(nlohmann::json& j, const CaseResult& c);
void from_json(const nlohmann::json& j, CaseResult& c);

nlohmann::json to_json(const ResultDocument& doc);
// Reads a document written by to_json; throws std::runtime_error naming the problem (not JSON,
// another schema, an unknown schema version).
ResultDocument result_from_json(const nlohmann::json& j);

}  // namespace xb
