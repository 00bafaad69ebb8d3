#pragma once
// What the HTML report plots, worked out from the result documents and nothing job-specific:
// - bandwidth against size: a case's first metric with a bandwidth unit, at the case's size; cases
//   grouped by job + the labels that are neither the size nor an overlay (transport, engine), one
//   plot per group, one line per run source and overlay; the runs of one case (by name) at a size
//   are one point (their median) with a p10-p90 band;
// - latency against size: likewise, a case's p50 (or avg) of each latency quantity;
// - the survey: the cases the survey annotated (core/survey_row.hpp), with their judgement;
// - latency percentiles: per case, the metrics <prefix>_p<N> (with <prefix>_min / _max) in a time
//   unit, and each series in a time unit (its summary's min, p50, p90, p99, max);
// - matrices: a case's config["matrix"] (report/matrix.hpp).
// The rules are written down in docs/report.md. Measurement never happens here: figures only.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/matrix.hpp"
#include "report/result_files.hpp"

namespace xb {

using Labels = std::vector<std::pair<std::string, std::string>>;

// How the lines of one plot are told apart: by the machine and program version that ran them
// (files of one machine together: a size sweep run as several commands is one line), or by file.
enum class LineBy { host, file };

// Label keys whose values are drawn as lines of one plot rather than plots of their own: the same
// path over another transport or IO engine, or to another server of a fan-out, is what a reader
// wants side by side.
inline constexpr const char* kOverlayLabelKeys[] = {"transport", "engine", "server"};

struct SizePoint {
  double size = 0;   // bytes
  double value = 0;  // in the plot's unit: the median of the runs at this size
  double low = 0;    // their 10th and 90th percentiles (= value for one run)
  double high = 0;
  std::vector<double> runs;  // every run's figure, in the order read
  std::string case_name;
};

struct SizeLine {
  std::string name;
  std::vector<SizePoint> points;  // by size, one per case and size
};

// One quantity of one path against size: bandwidth, or a latency's p50.
struct SizePlot {
  std::string job;
  Labels labels;       // the group's labels (size and overlay labels left out)
  std::string metric;  // the first case's metric name ("bandwidth", "latency p50", "series copy p50")
  std::string unit;    // every point converted to it
  std::vector<SizeLine> lines;

  std::size_t distinct_sizes() const;
};
using BandwidthPlot = SizePlot;

struct PercentilePoint {
  std::string name;  // "p99", "min", "max"
  double rank = 0;   // 0 for min, 99 for p99, 100 for max
  double value = 0;  // in the plot's unit
};

struct PercentileLine {
  std::string name;  // the case: its size and source
  std::vector<PercentilePoint> points;  // by rank
};

struct PercentilePlot {
  std::string job;
  Labels labels;
  std::string quantity;  // the metrics' prefix ("latency") or "series <name>"
  std::string unit;
  std::vector<PercentileLine> lines;
};

struct MatrixView {
  std::string source;  // the file
  std::string case_name;
  std::string case_title;
  Matrix matrix;
  // The colour scale runs from 0 to scale_max (absolute, so two matrices compare and 10% apart is
  // not red against green): the case's expected figure where it was judged in the matrix's unit,
  // else the largest value of every matrix of the report in that unit. scale_basis says which.
  double scale_max = 0;
  std::string scale_basis;
};

// A survey row with the judgement of its headline figure (docs/judge.md).
struct SurveyEntry {
  std::string source;  // the file
  std::string path;    // "H2D cpu (1 device)"
  std::uint64_t size_bytes = 0;
  std::string status;  // "ok", "waived", "failed"
  std::string reason;  // why not measured, or which metric is missing
  std::optional<double> figure;
  std::string metric;
  std::string unit;
  std::optional<double> expected;  // in unit
  std::optional<double> ratio;
  std::string verdict;  // "PASS", "WARN", "FAIL", "unjudged" or "" (not judged)
  bool higher_is_better = true;
};

struct ReportModel {
  std::vector<SizePlot> bandwidth;
  std::vector<SizePlot> latency_by_size;
  std::vector<PercentilePlot> latency;
  std::vector<MatrixView> matrices;
  std::vector<SurveyEntry> survey;
};

// The block or message size of a case in bytes: the first of config "block_bytes", "io_size",
// "message_bytes", "block", "size_bytes", "size" holding a positive number, else the first label
// of those names holding a size such as "64K". nullopt when the case has none.
std::optional<std::uint64_t> case_size_bytes(const CaseResult& c);

// The case's labels without the ones that state its size (their value read as a size equals it)
// and without the overlay labels (kOverlayLabelKeys).
Labels group_labels(const CaseResult& c, std::optional<std::uint64_t> size);

// The overlay labels' values, joined ("ucx", "io_uring"); empty when the case has none.
std::string overlay_of(const CaseResult& c);

// The metric plotted against size: the first with a bandwidth unit. nullptr when none has one.
const Metric* bandwidth_metric(const CaseResult& c);

// Throws UsageError naming the file and case when a case's matrix breaks the convention.
ReportModel build_report_model(const std::vector<LoadedResult>& results, LineBy by = LineBy::host);

}  // namespace xb
