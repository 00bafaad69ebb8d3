#pragma once
// `xferbench compare`'s arithmetic: cases of two result documents matched by job + name + labels,
// and per matched case and gated metric (report/metric_units.hpp) a ratio oriented so that below 1
// is worse: NEW / BASE where higher is better (bandwidth, IOPS), BASE / NEW where lower is better
// (latency). Rendering lives in compare_render.
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

struct CaseKey {
  std::string job;
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  bool operator==(const CaseKey&) const = default;
};

struct CompareRow {
  CaseKey key;
  std::string metric;  // empty for a row about the case's status
  std::string unit;
  Better better = Better::higher;
  std::optional<double> base;
  std::optional<double> now;  // NEW's figure, in BASE's unit
  std::optional<double> ratio;  // nullopt when it cannot be formed (a zero, or a figure missing)
  bool below = false;
  std::string note;  // why a row has no ratio, or what happened to the case
};

struct CompareResult {
  double threshold = 0.9;
  std::vector<CompareRow> rows;
  std::vector<CaseKey> only_in_base;
  std::vector<CaseKey> only_in_new;
  std::size_t below = 0;  // rows marked below
};

// A case that was ok in BASE but failed or was waived in NEW counts as below (a path lost); a case
// not ok in BASE is listed with a note and not compared. Cases present more than once in a
// document match in order (the first with the first).
CompareResult compare_results(const ResultDocument& base, const ResultDocument& now, double threshold);

}  // namespace xb
