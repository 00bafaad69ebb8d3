// The renderers (src/report/renderer.hpp): JSON that parses back, tidy RFC 4180 CSV (one header, a
// row per case and figure, matrix cells as rows), the people's table,
// and the --format names.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "core/matrix.hpp"
#include "report/columns.hpp"
#include "report/renderer.hpp"

namespace xb {
namespace {

using nlohmann::json;

CaseResult copy_case(std::string name, std::string from, double copy_us) {
  CaseResult c;
  c.job = "copy";
  c.name = std::move(name);
  c.title = "copy host to device";
  c.labels = {{"from", std::move(from)}, {"to", "cpu::device::all"}, {"size", "16K"}};
  c.config = {{"block_bytes", 16384}};
  c.series = {make_series("submit", "us", {1.0, 2.0, 3.0}), make_series("copy", "us", {copy_us, copy_us + 2})};
  c.metrics = {{"bandwidth", 16384.0 * 8 / ((copy_us + 1) / 1e6) / (1u << 30), "GiB/s", "size * count / copy.avg"}};
  return c;
}

ResultDocument two_case_document() {
  ResultDocument doc;
  doc.program_version = "test";
  doc.cases.push_back(copy_case("plain", "cpu::host::all", 100));
  doc.cases.push_back(copy_case("with_comma", "host, \"numa\" 1", 200));
  return doc;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// A reader for one RFC 4180 record (no embedded line breaks needed here).
std::vector<std::string> parse_csv_record(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quote in: " << line;
  return fields;
}

std::string rendered(void (*fn)(const ResultDocument&, std::ostream&), const ResultDocument& doc) {
  std::ostringstream out;
  fn(doc, out);
  return out.str();
}

TEST(RenderJson, ParsesBackAndHoldsTheCases) {
  const ResultDocument doc = two_case_document();
  const std::string text = rendered(render_json, doc);
  const json j = json::parse(text);  // throws (fails the test) on invalid JSON
  ASSERT_EQ(j.at("cases").size(), 2u);
  EXPECT_EQ(j["cases"][1]["name"], "with_comma");
  const ResultDocument back = result_from_json(j);
  ASSERT_EQ(back.cases.size(), 2u);
  EXPECT_EQ(back.cases[1].label("from"), "host, \"numa\" 1");
  ASSERT_NE(back.cases[1].find_series("copy"), nullptr);
  EXPECT_EQ(back.cases[1].find_series("copy")->samples, (std::vector<double>{200, 202}));
  EXPECT_DOUBLE_EQ(back.cases[0].find_metric("bandwidth")->value, doc.cases[0].metrics[0].value);
}

// The record of `lines` whose quantity and statistic are these, for case `name`.
std::vector<std::string> tidy_row(const std::vector<std::string>& lines, const std::vector<std::string>& header,
                                  const std::string& name, const std::string& quantity, const std::string& statistic) {
  const auto col = [&](const char* h) { return static_cast<std::size_t>(std::find(header.begin(), header.end(), h) - header.begin()); };
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto row = parse_csv_record(lines[i]);
    if (row[1] == name && row[col("quantity")] == quantity && row[col("statistic")] == statistic) return row;
  }
  return {};
}

TEST(RenderCsv, OneHeaderThenOneRowPerCaseAndFigure) {
  const ResultDocument doc = two_case_document();
  const auto lines = lines_of(rendered(render_csv, doc));
  // Per case: 2 series × 7 statistics + 1 metric.
  ASSERT_EQ(lines.size(), 1u + 2 * (2 * 7 + 1));
  const auto header = parse_csv_record(lines[0]);
  EXPECT_EQ(header, (std::vector<std::string>{"job", "case", "status", "from", "to", "size", "quantity", "statistic",
                                               "value", "unit", "note"}));
  for (std::size_t r = 1; r < lines.size(); ++r) {
    const auto row = parse_csv_record(lines[r]);
    ASSERT_EQ(row.size(), header.size()) << lines[r];
    EXPECT_EQ(row[0], "copy");
    EXPECT_EQ(row[2], "ok");
  }
  for (const auto& c : doc.cases) {
    const auto avg = tidy_row(lines, header, c.name, "copy", "avg");
    ASSERT_FALSE(avg.empty()) << c.name;
    EXPECT_EQ(avg[3], c.label("from"));
    EXPECT_DOUBLE_EQ(std::stod(avg[8]), c.find_series("copy")->summary.avg);
    EXPECT_EQ(avg[9], "us");
    const auto stddev = tidy_row(lines, header, c.name, "submit", "stddev");
    ASSERT_FALSE(stddev.empty());
    EXPECT_DOUBLE_EQ(std::stod(stddev[8]), c.find_series("submit")->summary.stddev);
    const auto bw = tidy_row(lines, header, c.name, "bandwidth", "value");
    ASSERT_FALSE(bw.empty());
    EXPECT_DOUBLE_EQ(std::stod(bw[8]), c.find_metric("bandwidth")->value);
    EXPECT_EQ(bw[9], "GiB/s");
  }
}

TEST(RenderCsv, QuotesFieldsPerRfc4180) {
  const auto lines = lines_of(rendered(render_csv, two_case_document()));
  // The comma-holding label is one quoted field, its quotes doubled; a plain label is not quoted.
  EXPECT_NE(lines.back().find(",\"host, \"\"numa\"\" 1\","), std::string::npos) << lines.back();
  EXPECT_NE(lines[1].find(",cpu::host::all,"), std::string::npos) << lines[1];
  EXPECT_EQ(parse_csv_record(lines.back())[3], "host, \"numa\" 1");
}

TEST(RenderCsv, MixedCasesShareOneHeaderAndACaseNotOkIsOneRowWithItsReason) {
  ResultDocument doc = two_case_document();
  CaseResult waived;
  waived.job = "io";
  waived.name = "hugepage_case";
  waived.labels = {{"engine", "io_uring"}};
  waived.status = CaseStatus::waived;
  waived.status_reason = "no huge pages, here";
  doc.cases.push_back(waived);
  const auto lines = lines_of(rendered(render_csv, doc));
  std::size_t headers = 0;
  for (const auto& l : lines) headers += l.rfind("job,case,", 0) == 0 ? 1 : 0;
  EXPECT_EQ(headers, 1u);
  const auto header = parse_csv_record(lines[0]);
  EXPECT_EQ(header, (std::vector<std::string>{"job", "case", "status", "from", "to", "size", "engine", "quantity",
                                               "statistic", "value", "unit", "note"}));
  EXPECT_EQ(lines.back(), "io,hugepage_case,waived,,,,io_uring,,,,,\"no huge pages, here\"");
  for (const auto& l : lines) EXPECT_EQ(parse_csv_record(l).size(), header.size()) << l;
}

TEST(RenderCsv, AMatrixIsOneRowPerMeasuredCellNamedByItsDevices) {
  ResultDocument doc;
  CaseResult m;
  m.job = "p2p";
  m.name = "p2p_matrix_unidirectional";
  m.labels = {{"devices", "2"}};
  Matrix matrix;
  matrix.rows = matrix.cols = {"gpu0", "gpu1"};
  matrix.values = {{std::nullopt, 40.5}, {41.25, std::nullopt}};
  matrix.unit = "GB/s";
  m.config = {{"matrix", matrix_to_json(matrix)}};
  doc.cases.push_back(m);
  const auto lines = lines_of(rendered(render_csv, doc));
  ASSERT_EQ(lines.size(), 3u) << rendered(render_csv, doc);
  EXPECT_EQ(lines[0], "job,case,status,devices,from,to,quantity,statistic,value,unit,note");
  EXPECT_EQ(lines[1], "p2p,p2p_matrix_unidirectional,ok,2,gpu0,gpu1,matrix,cell,40.5,GB/s,");
  EXPECT_EQ(lines[2], "p2p,p2p_matrix_unidirectional,ok,2,gpu1,gpu0,matrix,cell,41.25,GB/s,");
}

TEST(RenderTable, ShowsLabelsAndBandwidth) {
  const ResultDocument doc = two_case_document();
  const std::string text = rendered(render_table, doc);
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 4u) << text;  // title, header, two rows
  EXPECT_EQ(lines[0], "[[ copy ]] copy host to device");
  for (const char* h : {"from", "to", "size", "copy_avg(us)", "copy_p99(us)", "bandwidth(GiB/s)"}) {
    EXPECT_NE(lines[1].find(h), std::string::npos) << h;
  }
  EXPECT_NE(lines[2].find("cpu::host::all"), std::string::npos);
  EXPECT_NE(lines[3].find("host, \"numa\" 1"), std::string::npos);
  for (int r = 0; r < 2; ++r) {
    const std::string bw = format_number(doc.cases[static_cast<std::size_t>(r)].metrics[0].value);
    EXPECT_NE(lines[static_cast<std::size_t>(r) + 2].find(bw), std::string::npos) << bw;
    // Figures are right-aligned under their header, so the rows end with the bandwidth.
    EXPECT_EQ(lines[static_cast<std::size_t>(r) + 2].substr(lines[static_cast<std::size_t>(r) + 2].size() - bw.size()), bw);
  }
  // Columns line up: every row as long as the header.
  EXPECT_EQ(lines[2].size(), lines[1].size());
  EXPECT_EQ(lines[3].size(), lines[1].size());
}

TEST(CaseColumns, ACountWhoseUnitIsItsNameIsHeadedByTheNameAlone) {
  EXPECT_EQ(column_header("links", "links"), "links");
  EXPECT_EQ(column_header("executions", "executions"), "executions");
  EXPECT_EQ(column_header("ratio", ""), "ratio");
  EXPECT_EQ(column_header("flagged", "links"), "flagged(links)");
  EXPECT_EQ(column_header("bandwidth", "GB/s"), "bandwidth(GB/s)");
}

// A series' brief statistics and a metric of the same name (p2p's elapsed samples beside the
// histogram's elapsed_p50) were two columns under one header with two different figures.
TEST(CaseColumns, EachHeaderOnceAndTheMetricWinsOverASeriesSummaryOfItsName) {
  CaseResult c;
  c.labels = {{"size", "1M"}, {"verdict", "ok"}};
  c.series = {make_series("elapsed", "us", {243.0, 361.0})};
  c.metrics = {{"elapsed_p50", 243.0, "us", ""}, {"elapsed_avg", 302.0, "us", ""},
               {"executions", 2, "executions", ""}, {"flagged", 0, "links", ""}};
  c.verdict = CaseVerdict{};
  c.verdict->unit = "GB/s";
  c.verdict->verdict = "pass";
  const auto cols = case_columns(c);
  std::vector<std::string> headers;
  for (const auto& k : cols) headers.push_back(k.header);
  EXPECT_EQ(headers, (std::vector<std::string>{"size", "verdict", "elapsed_p99(us)", "elapsed_p50(us)",
                                               "elapsed_avg(us)", "executions", "flagged(links)", "expected(GB/s)",
                                               "ratio"}));
  // The figure under elapsed_p50 is the metric's (the histogram's lower median), not the series'
  // interpolated 302; the label "verdict" is kept, the judged one is not printed beside it again.
  const auto at = [&](const std::string& h) {
    return std::find_if(cols.begin(), cols.end(), [&](const Column& k) { return k.header == h; })->value;
  };
  EXPECT_EQ(at("elapsed_p50(us)"), format_number(243.0));
  EXPECT_EQ(at("elapsed_p99(us)"), format_number(c.series[0].summary.p99));
  EXPECT_EQ(at("verdict"), "ok");
  EXPECT_EQ(at("executions"), "2");
}

TEST(RenderTable, WaivedAndFailedCasesPrintTheirReason) {
  ResultDocument doc = two_case_document();
  CaseResult waived;
  waived.job = "copy";
  waived.name = "h2d_hugepage";
  waived.status = CaseStatus::waived;
  waived.status_reason = "huge pages: none reserved";
  CaseResult failed = waived;
  failed.name = "d2h_pinned";
  failed.status = CaseStatus::failed;
  failed.status_reason = "verify failed at offset 17";
  doc.cases.insert(doc.cases.begin() + 1, waived);
  doc.cases.push_back(failed);
  const std::string text = rendered(render_table, doc);
  EXPECT_NE(text.find("[[ h2d_hugepage ]] waived: huge pages: none reserved\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[[ d2h_pinned ]] failed: verify failed at offset 17\n"), std::string::npos) << text;
  // The ok cases around them are still shown.
  EXPECT_NE(text.find("cpu::host::all"), std::string::npos);
  EXPECT_NE(text.find("host, \"numa\" 1"), std::string::npos);
}

TEST(RenderJson, KeepsStatusReason) {
  ResultDocument doc;
  CaseResult waived;
  waived.job = "copy";
  waived.name = "x";
  waived.status = CaseStatus::waived;
  waived.status_reason = "no device";
  doc.cases.push_back(waived);
  const json j = json::parse(rendered(render_json, doc));
  EXPECT_EQ(j["cases"][0]["status"], "waived");
  EXPECT_EQ(j["cases"][0]["status_reason"], "no device");
}

TEST(OutputFormat, AcceptsTheThreeNames) {
  EXPECT_EQ(output_format_from("table"), OutputFormat::table);
  EXPECT_EQ(output_format_from("json"), OutputFormat::json);
  EXPECT_EQ(output_format_from("csv"), OutputFormat::csv);
  for (const char* bad : {"", "xml", "JSON", "tables", " csv", "html"}) {
    EXPECT_EQ(output_format_from(bad), std::nullopt) << bad;
  }
}

TEST(OutputFormat, RenderDispatchesToEachRenderer) {
  const ResultDocument doc = two_case_document();
  const std::pair<OutputFormat, void (*)(const ResultDocument&, std::ostream&)> kinds[] = {
      {OutputFormat::table, render_table}, {OutputFormat::json, render_json}, {OutputFormat::csv, render_csv}};
  for (const auto& [format, fn] : kinds) {
    std::ostringstream out;
    render(doc, format, out);
    EXPECT_EQ(out.str(), rendered(fn, doc));
  }
}

TEST(FormatNumber, SignificantDecimalsBySize) {
  EXPECT_EQ(format_number(12.34567), "12.346");
  EXPECT_EQ(format_number(0.0), "0.000");
  EXPECT_EQ(format_number(123.44), "123.4");
  EXPECT_EQ(format_number(1234.6), "1235");
  EXPECT_EQ(format_number(-5), "-5.000");
  EXPECT_EQ(format_number(-2500.2), "-2500");
}

// Counts print as integers in the native table (issue 18 item 2): "400", not "400.0"; a count that
// is not whole (a mean), a time and a rate keep their decimals.
TEST(MetricCellText, WholeCountsAreIntegersOtherFiguresKeepTheirDecimals) {
  EXPECT_EQ(metric_cell_text({"iterations", 400, "transfers", ""}), "400");
  EXPECT_EQ(metric_cell_text({"transfers", 64, "transfers", ""}), "64");
  EXPECT_EQ(metric_cell_text({"bytes", 268435456, "B", ""}), "268435456");
  EXPECT_EQ(metric_cell_text({"blocks", 2.5, "blocks", ""}), "2.500");
  EXPECT_EQ(metric_cell_text({"latency_avg", 12, "us", ""}), "12.000");
  EXPECT_EQ(metric_cell_text({"bandwidth", 400, "Gb/s", ""}), "400.0");
  EXPECT_EQ(metric_cell_text({"iops", 400, "IO/s", ""}), "400.0");
  EXPECT_EQ(metric_cell_text({"util", 50, "%", ""}), "50.000");
  EXPECT_EQ(metric_cell_text({"threshold", 2, "x median", ""}), "2.000");  // a multiple, not a count
  EXPECT_EQ(metric_cell_text({"speedup", 3, "ratio", ""}), "3.000");
}

}  // namespace
}  // namespace xb

namespace xb {
namespace {

// A run that ended early (issue 18 item 8): every format says so, and the JSON reads back the same.
TEST(RenderPartial, EveryFormatMarksARunThatEndedEarly) {
  ResultDocument doc = two_case_document();
  doc.partial = "interrupted by SIGINT";
  const std::string table = rendered(render_table, doc);
  EXPECT_NE(table.find("PARTIAL: the run ended early (interrupted by SIGINT): 2 cases complete, shown above"),
            std::string::npos)
      << table;
  const auto lines = lines_of(rendered(render_csv, doc));
  ASSERT_GE(lines.size(), 2u);
  const auto last = parse_csv_record(lines.back());
  const auto header = parse_csv_record(lines.front());
  ASSERT_EQ(last.size(), header.size()) << lines.back();
  EXPECT_EQ(last[2], "partial") << lines.back();
  EXPECT_EQ(last.back(), "interrupted by SIGINT") << lines.back();
  const json j = json::parse(rendered(render_json, doc));
  EXPECT_EQ(j.at("partial").at("reason"), "interrupted by SIGINT");
  EXPECT_EQ(result_from_json(j).partial, "interrupted by SIGINT");
}

TEST(RenderPartial, ACompleteRunSaysNothingOfIt) {
  const ResultDocument doc = two_case_document();
  EXPECT_EQ(rendered(render_table, doc).find("PARTIAL"), std::string::npos);
  for (const auto& line : lines_of(rendered(render_csv, doc))) EXPECT_EQ(line.find("partial"), std::string::npos) << line;
  EXPECT_FALSE(json::parse(rendered(render_json, doc)).contains("partial"));
}

}  // namespace
}  // namespace xb
