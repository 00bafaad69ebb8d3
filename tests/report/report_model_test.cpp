// Grouping for the plots: a case's size, the labels that name its path, one plot per path, one
// line per source, bandwidth units converted, latency percentile sets from metrics and series.
#include "report/report_model.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/matrix.hpp"
#include "core/survey_row.hpp"
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

TEST(ReportModel, LatencyAgainstSizeTakesEachQuantitysMedianElseItsAverage) {
  std::vector<CaseResult> cases;
  for (const std::uint64_t size : {8u, 4096u}) {
    CaseResult link;
    link.job = "link";
    link.name = fmt::format("link_{}", size);
    link.labels = {{"size", std::to_string(size)}, {"memory", "host:host"}, {"transport", "ucx"}};
    link.config = {{"size", size}};
    // No percentiles: the average. A series in a time unit: its p50.
    link.metrics = {{"latency_avg", size == 8 ? 2.0 : 4.0, "us", ""}, {"latency_min", 1, "us", ""},
                    {"bandwidth", 1, "Gb/s", ""}};
    link.series = {make_series("transfer", "ms", {0.001, 0.002, 0.003})};
    cases.push_back(link);
  }
  CaseResult io;
  io.job = "io";
  io.name = "randread_4K";
  io.labels = {{"rw", "randread"}, {"io_size", "4K"}, {"engine", "psync"}};
  io.config = {{"io_size", 4096}};
  io.metrics = {{"latency_avg", 30, "us", ""}, {"latency_p50", 27, "us", ""}};  // p50 before avg
  cases.push_back(io);
  const ReportModel m = build_report_model({doc_of("a.json", "n", cases)});
  ASSERT_EQ(m.latency_by_size.size(), 3u);
  EXPECT_EQ(m.latency_by_size[0].job, "link");
  EXPECT_EQ(m.latency_by_size[0].metric, "latency avg");
  EXPECT_EQ(m.latency_by_size[0].labels, (Labels{{"memory", "host:host"}}));  // size and transport left out
  ASSERT_EQ(m.latency_by_size[0].lines.size(), 1u);
  EXPECT_EQ(m.latency_by_size[0].lines[0].name, "ucx · n (xferbench 1.0)");
  ASSERT_EQ(m.latency_by_size[0].lines[0].points.size(), 2u);
  EXPECT_EQ(m.latency_by_size[0].lines[0].points[1].value, 4.0);
  EXPECT_EQ(m.latency_by_size[0].distinct_sizes(), 2u);
  EXPECT_EQ(m.latency_by_size[1].metric, "series transfer p50");
  EXPECT_EQ(m.latency_by_size[1].unit, "ms");
  EXPECT_EQ(m.latency_by_size[2].metric, "latency p50");
  EXPECT_EQ(m.latency_by_size[2].lines[0].points[0].value, 27);
  EXPECT_EQ(m.latency_by_size[2].lines[0].name, "psync · n (xferbench 1.0)");
}

TEST(ReportModel, TransportsAreLinesOfOnePlot) {
  std::vector<CaseResult> cases;
  for (const char* transport : {"ucx", "tcp"}) {
    for (const std::uint64_t size : {8u, 64u}) {
      CaseResult c;
      c.job = "link";
      c.name = fmt::format("link_{}", size);
      c.labels = {{"size", std::to_string(size)}, {"transport", transport}};
      c.config = {{"size", size}};
      c.metrics = {{"bandwidth", transport[0] == 'u' ? 10.0 : 1.0, "Gb/s", ""}};
      cases.push_back(c);
    }
  }
  const ReportModel m = build_report_model({doc_of("a.json", "n", cases)});
  ASSERT_EQ(m.bandwidth.size(), 1u);
  EXPECT_TRUE(m.bandwidth[0].labels.empty());
  ASSERT_EQ(m.bandwidth[0].lines.size(), 2u);
  EXPECT_EQ(m.bandwidth[0].lines[0].name, "ucx · n (xferbench 1.0)");
  EXPECT_EQ(m.bandwidth[0].lines[1].name, "tcp · n (xferbench 1.0)");
  EXPECT_EQ(m.bandwidth[0].lines[1].points[0].value, 1.0);
  EXPECT_EQ(overlay_of(cases[0]), "ucx");
}

// A fan-out's servers (same case name and labels but the server) are lines of one plot, never
// one point merging their figures as if they were repetitions.
TEST(ReportModel, ServersOfAFanOutAreLinesOfOnePlot) {
  std::vector<CaseResult> cases;
  for (const char* server : {"0", "1"}) {
    CaseResult c;
    c.job = "xfer";
    c.name = "write_h2h_4M_tcp";
    c.labels = {{"block", "4M"}, {"transport", "tcp"}, {"server", server}};
    c.config = {{"block", 4194304}};
    c.metrics = {{"bandwidth", server[0] == '0' ? 10.0 : 2.0, "GB/s", ""}};
    cases.push_back(c);
  }
  const ReportModel m = build_report_model({doc_of("a.json", "n", cases)});
  ASSERT_EQ(m.bandwidth.size(), 1u);
  ASSERT_EQ(m.bandwidth[0].lines.size(), 2u);
  EXPECT_EQ(m.bandwidth[0].lines[0].name, "tcp server 0 · n (xferbench 1.0)");
  EXPECT_EQ(m.bandwidth[0].lines[1].name, "tcp server 1 · n (xferbench 1.0)");
  ASSERT_EQ(m.bandwidth[0].lines[1].points.size(), 1u);
  EXPECT_EQ(m.bandwidth[0].lines[1].points[0].runs.size(), 1u);
  EXPECT_EQ(m.bandwidth[0].lines[1].points[0].runs[0], 2.0);
}

TEST(ReportModel, RunsOfACaseAreOnePointWithTheirSpread) {
  // Five runs of one case at 4K (two files, --repetitions), one at 64K; another case at 4K.
  std::vector<CaseResult> first, second;
  for (const double v : {1.0, 2.0, 3.0}) first.push_back(copy_case(4096, "4K", "pinned", v));
  for (const double v : {4.0, 5.0}) second.push_back(copy_case(4096, "4K", "pinned", v));
  second.push_back(copy_case(65536, "64K", "pinned", 7));
  CaseResult other = copy_case(4096, "4K", "pinned", 100);
  other.name = "another_case";
  second.push_back(other);
  const ReportModel m = build_report_model({doc_of("a.json", "n", first), doc_of("b.json", "n", second)});
  ASSERT_EQ(m.bandwidth.size(), 1u);
  ASSERT_EQ(m.bandwidth[0].lines.size(), 1u);
  const auto& points = m.bandwidth[0].lines[0].points;
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].runs, (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_DOUBLE_EQ(points[0].value, 3);   // the median
  EXPECT_DOUBLE_EQ(points[0].low, 1.4);   // p10 of 1..5, interpolated
  EXPECT_DOUBLE_EQ(points[0].high, 4.6);  // p90
  EXPECT_EQ(points[1].case_name, "another_case");
  EXPECT_EQ(points[1].size, 4096);
  EXPECT_EQ(points[2].runs.size(), 1u);
  EXPECT_DOUBLE_EQ(points[2].low, 7);
  EXPECT_DOUBLE_EQ(points[2].high, 7);
  EXPECT_EQ(m.bandwidth[0].distinct_sizes(), 2u);
}

TEST(ReportModel, SurveyRowsCarryTheirJudgement) {
  CaseResult judged = copy_case(4 << 20, "4M", "pinned", 20);
  annotate_survey_row(judged, {"H2D cpu", 4 << 20, "bandwidth"});
  judged.verdict = CaseVerdict{};
  judged.verdict->metric = "bandwidth";
  judged.verdict->unit = "GiB/s";
  judged.verdict->expected = 25;
  judged.verdict->ratio = 0.8;
  judged.verdict->verdict = "WARN";
  CaseResult other_metric = judged;  // judged on another figure than the row's: not shown as its judgement
  other_metric.verdict->metric = "bandwidth_decimal";
  CaseResult waived;
  waived.job = "p2p";
  waived.status = CaseStatus::waived;
  waived.status_reason = "needs two devices";
  annotate_survey_row(waived, {"P2P", 0, ""});
  const CaseResult plain = copy_case(4096, "4K", "pinned", 1);  // not the survey's
  const ReportModel m = build_report_model({doc_of("s.json", "n", {judged, other_metric, waived, plain})});
  ASSERT_EQ(m.survey.size(), 3u);
  EXPECT_EQ(m.survey[0].path, "H2D cpu");
  EXPECT_EQ(m.survey[0].figure, 20);
  EXPECT_EQ(m.survey[0].expected, 25);
  EXPECT_EQ(m.survey[0].ratio, 0.8);
  EXPECT_EQ(m.survey[0].verdict, "WARN");
  EXPECT_EQ(m.survey[0].unit, "GiB/s");
  EXPECT_FALSE(m.survey[1].expected);
  EXPECT_EQ(m.survey[1].verdict, "");
  EXPECT_EQ(m.survey[2].status, "waived");
  EXPECT_EQ(m.survey[2].reason, "needs two devices");
  EXPECT_FALSE(m.survey[2].figure);
}

TEST(ReportModel, MatricesShareAnAbsoluteScaleOrTakeTheExpectedFigure) {
  const auto with_matrix = [](const std::string& name, double top, const std::string& unit) {
    CaseResult c = copy_case(4096, "4K", name, 1);
    c.name = name;
    Matrix mx;
    mx.rows = mx.cols = {"a", "b"};
    mx.values = {{std::nullopt, top}, {top / 2, std::nullopt}};
    mx.unit = unit;
    mx.higher_is_better = unit != "us";
    c.config["matrix"] = matrix_to_json(mx);
    return c;
  };
  CaseResult judged = with_matrix("judged", 50, "GB/s");
  judged.verdict = CaseVerdict{};
  judged.verdict->unit = "GB/s";
  judged.verdict->expected = 80;
  // A judged time: 0 is its best end, so the scale runs to twice the expected figure.
  CaseResult judged_time = with_matrix("judged_time", 6, "us");
  judged_time.verdict = CaseVerdict{};
  judged_time.verdict->unit = "us";
  judged_time.verdict->expected = 5;
  const ReportModel m = build_report_model({doc_of("a.json", "n", {with_matrix("x", 100, "GB/s"),
                                                                  with_matrix("y", 40, "GB/s"),
                                                                  with_matrix("z", 7, "us"), judged, judged_time})});
  ASSERT_EQ(m.matrices.size(), 5u);
  EXPECT_FALSE(m.matrices[4].matrix.higher_is_better);
  EXPECT_EQ(m.matrices[4].scale_max, 10);
  EXPECT_EQ(m.matrices[4].scale_basis, "twice the case's expected figure");
  EXPECT_EQ(m.matrices[0].scale_max, 100);
  EXPECT_EQ(m.matrices[1].scale_max, 100);  // the largest of every GB/s matrix, the judged one's too
  EXPECT_EQ(m.matrices[1].scale_basis, "the largest value of the report's 3 matrices in GB/s");
  EXPECT_EQ(m.matrices[2].scale_max, 7);
  EXPECT_EQ(m.matrices[2].scale_basis, "the largest value of the report's 2 matrices in us");
  EXPECT_EQ(m.matrices[3].scale_max, 80);
  EXPECT_EQ(m.matrices[3].scale_basis, "the case's expected figure");
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
