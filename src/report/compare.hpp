#pragma once
// `xferbench compare`'s arithmetic: cases of two sides matched by what identifies them (job, name,
// and the labels that describe the case: path, size, devices; never a verdict or a peer's
// ephemeral address), and per matched case and gated metric (core/metric_units.hpp) a ratio
// oriented so that below 1 is worse: NEW / BASE where higher is better (bandwidth, IOPS),
// BASE / NEW where lower is better (latency). A side may hold repetitions of a case (several
// result files, or a case repeated in one): the ratio is then of the medians, and a drop counts
// only where the Mann–Whitney U test finds the two sides differ (p below alpha), as Google
// benchmark's compare.py does. Rendering lives in compare_render.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/metric_units.hpp"
#include "core/result.hpp"

namespace xb {

// Accepted --threshold values: 0 < t <= 10 (above 1 demands an improvement).
inline constexpr double kMaxCompareThreshold = 10.0;

struct CompareOptions {
  double threshold = 0.9;  // a ratio below it is a drop
  double alpha = 0.05;     // with repetitions, a drop also needs p below it
};

struct CaseKey {
  std::string job;
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  auto operator<=>(const CaseKey&) const = default;  // ordered: a side's cases are indexed by key
};

// The case's identity for matching: its labels less those that record an outcome or a run's
// incidentals ("verdict": fleet links; "client": the address an xfer server was reached from).
CaseKey compare_key_of(const CaseResult& c);

struct CompareRow {
  CaseKey key;
  std::string metric;  // empty for a row about the case's status
  std::string unit;
  Better better = Better::higher;
  std::optional<double> base;  // the median of BASE's repetitions
  std::optional<double> now;   // the median of NEW's, in BASE's unit
  std::optional<double> ratio;  // nullopt when it cannot be formed (a zero, or a figure missing)
  std::size_t base_runs = 0, new_runs = 0;  // repetitions with a figure, each side
  std::optional<double> p_value;  // Mann–Whitney, where both sides have 2 or more repetitions
  bool below = false;
  std::string note;  // why a row has no ratio, what happened to the case, a drop not significant
};

struct CompareResult {
  CompareOptions options;
  std::vector<CompareRow> rows;
  std::size_t matched = 0;  // cases of BASE found in NEW
  std::vector<CaseKey> only_in_base;
  std::vector<CaseKey> only_in_new;
  std::size_t below = 0;  // rows marked below

  // The gate: a drop, a case of BASE missing from NEW, or nothing matched at all.
  bool failed() const { return below > 0 || matched == 0 || !only_in_base.empty(); }
};

// Each side is one or more documents (repetitions). A case that was ok in BASE but failed or was
// waived in every repetition in NEW counts as below (a path lost); a case never ok in BASE is
// listed with a note and not compared.
CompareResult compare_results(const std::vector<ResultDocument>& base, const std::vector<ResultDocument>& now,
                              const CompareOptions& options);

}  // namespace xb
