// Grouping for the plots: a case's size, the labels that name its path, one plot per path, one
// line per source, bandwidth units converted, latency percentile sets from metrics and series.
#include "report/report_model.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "support/job_helpers.hpp"

namespace xb {
namespace {

// A copy-like case: the size in config "block_bytes" and in the label "size".
CaseResult copy_case(std::uint64_t size, const std::string& size_label, const std::string& from, double gib_s) {
  CaseResult c;
  c.job = "copy";
  c.name = "h2d_" + from;
  c.labels = {{"from", from}, {"size", size_label}, {"count", "4"}};
  c.config = {{"block_bytes", size}, {"blocks", 4}};
  c.metrics = {{"bandwidth", gib_s, "GiB/s", ""}, {"bandwidth_decimal", gib_s * 1.073741824, "GB/s", ""}};
  return c;
}

LoadedResult doc_of(std::string path, std::string host, std::vector<CaseResult> cases) {
  LoadedResult r;
  r.path = std::move(path);
  r.doc.program_version = "1.0";
  r.doc.machine.hostname = std::move(host);
  r.doc.cases = std::move(cases);
  return r;
}

TEST(ReportModel, SizeComesFromTheConfigFirst) {
  CaseResult io;
  io.labels = {{"io_size", "4K"}, {"size", "4M"}};
  io.config = {{"io_size", 4096}, {"size_per_thread", 4194304}};
  EXPECT_EQ(case_size_bytes(io), 4096u);
  // The label that states the size is not part of the group; the file size label is.
  EXPECT_EQ(group_labels(io, 4096), (Labels{{"size", "4M"}}));

  CaseResult xfer;
  xfer.labels = {{"op", "write"}, {"block", "8M"}};
  xfer.config = {{"block", 8388608}, {"total", 134217728}};
  EXPECT_EQ(case_size_bytes(xfer), 8388608u);
  EXPECT_EQ(group_labels(xfer, 8388608), (Labels{{"op", "write"}}));
}

TEST(ReportModel, SizeFallsBackToALabelAndMayBeAbsent) {
  CaseResult c;
  c.labels = {{"msg", "x"}, {"size", "64K"}};
  c.config = {{"size", "not a number"}};
  EXPECT_EQ(case_size_bytes(c), 65536u);
  c.labels = {{"size", "big"}};
  EXPECT_FALSE(case_size_bytes(c));
  c.config = {{"block_bytes", 0}};  // zero is no size
  EXPECT_FALSE(case_size_bytes(c));
}

TEST(ReportModel, TheFirstBandwidthMetricIsPlotted) {
  CaseResult c;
  c.metrics = {{"iops", 1000, "IO/s", ""}, {"throughput", 3.5, "GiB/s", ""}, {"bandwidth", 30, "Gb/s", ""}};
  ASSERT_NE(bandwidth_metric(c), nullptr);
  EXPECT_EQ(bandwidth_metric(c)->name, "throughput");
  c.metrics.erase(c.metrics.begin() + 1, c.metrics.end());
  EXPECT_EQ(bandwidth_metric(c), nullptr);
}

TEST(ReportModel, OnePlotPerPathOneLinePerHostPointsBySize) {
  const std::vector<LoadedResult> results{
      doc_of("a1.json", "node-a", {copy_case(1 << 20, "1M", "pinned", 9)}),
      doc_of("a2.json", "node-a", {copy_case(4096, "4K", "pinned", 1), copy_case(4096, "4K", "pageable", 0.5)}),
      doc_of("a3.json", "node-a", {copy_case(65536, "64K", "pinned", 5)}),
      doc_of("b.json", "node-b", {copy_case(65536, "64K", "pinned", 4)}),
  };
  const ReportModel m = build_report_model(results);
  ASSERT_EQ(m.bandwidth.size(), 2u);
  const auto& pinned = m.bandwidth[0];
  EXPECT_EQ(pinned.job, "copy");
  EXPECT_EQ(pinned.labels, (Labels{{"from", "pinned"}, {"count", "4"}}));
  EXPECT_EQ(pinned.metric, "bandwidth");
  EXPECT_EQ(pinned.unit, "GiB/s");
  ASSERT_EQ(pinned.lines.size(), 2u);
  EXPECT_EQ(pinned.lines[0].name, "node-a (xferbench 1.0)");
  ASSERT_EQ(pinned.lines[0].points.size(), 3u);
  EXPECT_EQ(pinned.lines[0].points[0].size, 4096);
  EXPECT_EQ(pinned.lines[0].points[1].size, 65536);
  EXPECT_EQ(pinned.lines[0].points[2].size, 1 << 20);
  EXPECT_EQ(pinned.lines[0].points[2].value, 9);
  ASSERT_EQ(pinned.lines[1].points.size(), 1u);
  EXPECT_EQ(pinned.lines[1].points[0].value, 4);
  EXPECT_EQ(m.bandwidth[1].labels.front().second, "pageable");

  // By file: every file its own line.
  EXPECT_EQ(build_report_model(results, LineBy::file).bandwidth[0].lines.size(), 4u);
}

TEST(ReportModel, AGroupTakesItsFirstUnitAndConvertsTheRest) {
  CaseResult decimal = copy_case(65536, "64K", "pinned", 0);
  decimal.metrics = {{"bandwidth", 1.073741824, "GB/s", ""}};  // = 1 GiB/s
  const ReportModel m = build_report_model({doc_of("a.json", "n", {copy_case(4096, "4K", "pinned", 2), decimal})});
  ASSERT_EQ(m.bandwidth.size(), 1u);
  ASSERT_EQ(m.bandwidth[0].lines[0].points.size(), 2u);
  EXPECT_NEAR(m.bandwidth[0].lines[0].points[1].value, 1.0, 1e-12);
}

TEST(ReportModel, CasesThatDidNotRunAreNotPlotted) {
  CaseResult waived = copy_case(4096, "4K", "pinned", 0);
  waived.status = CaseStatus::waived;
  EXPECT_TRUE(build_report_model({doc_of("a.json", "n", {waived})}).bandwidth.empty());
}

TEST(ReportModel, LatencyPercentilesFromMetricsAndTimeSeries) {
  CaseResult io;
  io.job = "io";
  io.labels = {{"rw", "randread"}, {"io_size", "4K"}};
  io.config = {{"io_size", 4096}};
  io.metrics = {{"iops", 1e5, "IO/s", ""},        {"latency_min", 20, "us", ""},  {"latency_avg", 30, "us", ""},
                {"latency_p50", 27, "us", ""},    {"latency_p99.9", 2, "ms", ""}, {"latency_p90", 29, "us", ""},
                {"latency_max", 5000, "us", ""},  {"cpu_per_io", 12, "us", ""},   {"wall_time", 1, "s", ""}};
  io.series = {make_series("copy", "us", {10, 20, 30}), make_series("bytes", "B", {1, 2})};
  const ReportModel m = build_report_model({doc_of("io.json", "n", {io})});
  ASSERT_EQ(m.latency.size(), 2u);
  const auto& lat = m.latency[0];
  EXPECT_EQ(lat.quantity, "latency");
  EXPECT_EQ(lat.unit, "us");
  EXPECT_EQ(lat.labels, (Labels{{"rw", "randread"}}));
  ASSERT_EQ(lat.lines.size(), 1u);
  EXPECT_EQ(lat.lines[0].name, "4K · n (xferbench 1.0)");
  const auto& p = lat.lines[0].points;
  ASSERT_EQ(p.size(), 5u);  // min, p50, p90, p99.9, max: avg and the other metrics are not percentiles
  EXPECT_EQ(p[0].name, "min");
  EXPECT_EQ(p[1].name, "p50");
  EXPECT_EQ(p[2].name, "p90");
  EXPECT_EQ(p[3].name, "p99.9");
  EXPECT_DOUBLE_EQ(p[3].value, 2000);  // ms into the set's us
  EXPECT_EQ(p[4].name, "max");
  EXPECT_EQ(m.latency[1].quantity, "series copy");
  ASSERT_EQ(m.latency[1].lines[0].points.size(), 5u);
  EXPECT_DOUBLE_EQ(m.latency[1].lines[0].points[0].value, 10);
  EXPECT_DOUBLE_EQ(m.latency[1].lines[0].points[4].value, 30);
}

TEST(ReportModel, MatricesAreCollectedAndABrokenOneNamesFileAndCase) {
  CaseResult c = copy_case(4096, "4K", "pinned", 1);
  c.config["matrix"] = {{"rows", {"a"}}, {"cols", {"b"}}, {"values", {{1.5}}}, {"unit", "GB/s"}};
  const ReportModel m = build_report_model({doc_of("p2p.json", "n", {c})});
  ASSERT_EQ(m.matrices.size(), 1u);
  EXPECT_EQ(m.matrices[0].source, "p2p.json");
  EXPECT_EQ(m.matrices[0].matrix.values[0][0], 1.5);

  c.config["matrix"]["values"] = {{1.5, 2.5}};
  const std::string what = test::error_of([&] { (void)build_report_model({doc_of("p2p.json", "n", {c})}); });
  EXPECT_NE(what.find("results file p2p.json: case h2d_pinned: matrix: row 0"), std::string::npos) << what;
  EXPECT_THROW((void)build_report_model({doc_of("p2p.json", "n", {c})}), UsageError);
}

}  // namespace
}  // namespace xb
