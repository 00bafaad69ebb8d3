#pragma once
// What the HTML report plots, worked out from the result documents and nothing job-specific:
// - bandwidth against size: a case's first metric with a bandwidth unit, at the case's size; cases
//   grouped by job + the labels that are not the size, one plot per group, one line per run source;
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

struct SizePoint {
  double size = 0;   // bytes
  double value = 0;  // in the plot's unit
  std::string case_name;
};

struct SizeLine {
  std::string name;
  std::vector<SizePoint> points;  // by size
};

struct BandwidthPlot {
  std::string job;
  Labels labels;       // the group's labels (size labels left out)
  std::string metric;  // the first case's metric name
  std::string unit;    // every point converted to it
  std::vector<SizeLine> lines;
};

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
};

struct ReportModel {
  std::vector<BandwidthPlot> bandwidth;
  std::vector<PercentilePlot> latency;
  std::vector<MatrixView> matrices;
};

// The block or message size of a case in bytes: the first of config "block_bytes", "io_size",
// "message_bytes", "block", "size_bytes", "size" holding a positive number, else the first label
// of those names holding a size such as "64K". nullopt when the case has none.
std::optional<std::uint64_t> case_size_bytes(const CaseResult& c);

// The case's labels without the ones that state its size (their value read as a size equals it).
Labels group_labels(const CaseResult& c, std::optional<std::uint64_t> size);

// The metric plotted against size: the first with a bandwidth unit. nullptr when none has one.
const Metric* bandwidth_metric(const CaseResult& c);

// Throws UsageError naming the file and case when a case's matrix breaks the convention.
ReportModel build_report_model(const std::vector<LoadedResult>& results, LineBy by = LineBy::host);

}  // namespace xb
