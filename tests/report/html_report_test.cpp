// The page as text: self-contained (nothing it could fetch), hostile strings from every field of a
// result document rendered as text, and each section present with its plots.
#include "report/html_report.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/survey_row.hpp"
#include "report/renderer.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

constexpr const char* kHostile = "</script><b>x</b>&\"'<img src=http://example.invalid/a.png>";

using test::count;

LoadedResult hostile_document() {
  LoadedResult r;
  r.path = std::string("/tmp/") + kHostile + ".json";
  auto& d = r.doc;
  d.program_version = kHostile;
  d.started_at = kHostile;
  d.machine = {kHostile, kHostile, kHostile, 2, 1, 1 << 30};
  d.command_line = {"xferbench", "copy", kHostile};
  for (const std::uint64_t size : {4096u, 65536u}) {
    CaseResult c;
    c.job = kHostile;
    c.name = kHostile;
    c.title = kHostile;
    c.labels = {{kHostile, kHostile}, {"size", size == 4096 ? "4K" : "64K"}};
    c.config = {{"block_bytes", size}, {kHostile, kHostile}};
    c.config["matrix"] = {{"rows", {kHostile}}, {"cols", {kHostile}}, {"values", {{1.0}}}, {"unit", "GB/s"},
                          {"title", kHostile}};
    c.metrics = {{"bandwidth", 1.5, "GiB/s", kHostile}, {"latency_p50", 3, "us", kHostile}, {kHostile, 1, kHostile, ""}};
    c.series = {make_series(kHostile, "us", {1, 2, 3})};
    d.cases.push_back(std::move(c));
  }
  CaseResult failed;
  failed.job = "copy";
  failed.name = "failed_case";
  failed.status = CaseStatus::failed;
  failed.status_reason = kHostile;
  d.cases.push_back(std::move(failed));
  return r;
}

TEST(HtmlReport, HostileStringsInEveryFieldStayText) {
  const std::string page = render_html_report({hostile_document()});
  EXPECT_EQ(page.find("<b>x</b>"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("</script><b>"), std::string::npos);
  EXPECT_NE(page.find("&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&amp;&quot;&#39;&lt;img"), std::string::npos);
  // One script (the self-check) and its one end; one html, body and head.
  EXPECT_EQ(count(page, "<script"), 1u);
  EXPECT_EQ(count(page, "</script>"), 1u);
  EXPECT_EQ(count(page, "</body>"), 1u);
  EXPECT_EQ(count(page, "</html>"), 1u);
  // The hostile string reached each place it was put: path, version, machine, command line, config.
  EXPECT_GE(count(page, "&lt;/script&gt;&lt;b&gt;x"), 15u);
}

TEST(HtmlReport, NothingOnThePageIsFetched) {
  const std::string page = render_html_report({hostile_document()});
  EXPECT_EQ(page.find(" src=\""), std::string::npos);
  for (const char* tag : {"<img", "<link", "<iframe", "<object", "<embed", "<image"}) {
    EXPECT_EQ(page.find(tag), std::string::npos) << tag;
  }
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  EXPECT_EQ(page.find("href=\"http"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
}

TEST(HtmlReport, SectionsPlotsAndConfiguration) {
  const std::string page = render_html_report({hostile_document()});
  EXPECT_NE(page.find("<h2>Bandwidth against block size</h2>"), std::string::npos);
  EXPECT_NE(page.find("<h2>Latency percentiles</h2>"), std::string::npos);
  EXPECT_NE(page.find("<h2>Matrices</h2>"), std::string::npos);
  EXPECT_NE(page.find("<h2>Runs and their configuration</h2>"), std::string::npos);
  EXPECT_NE(page.find("<h2>Latency against size</h2>"), std::string::npos);
  EXPECT_EQ(page.find("<h2>Survey</h2>"), std::string::npos);  // no survey among the files
  // Charts: bandwidth of both sizes; latency against size (latency p50 and the series' p50); the
  // series' percentiles. The metrics' one percentile (p50) is a table, not a plot of points
  // strung over one category. Two heat maps.
  EXPECT_EQ(count(page, "<svg class=\"xb-plot xb-chart\""), 4u);
  EXPECT_EQ(count(page, "<figure class=\"latency single-point\""), 1u);
  EXPECT_EQ(count(page, "<svg class=\"xb-plot xb-heatmap\""), 2u);
  EXPECT_NE(page.find("data-marks=\"2\""), std::string::npos);
  EXPECT_NE(page.find("&quot;block_bytes&quot;: 4096"), std::string::npos);
  EXPECT_NE(page.find("failed_case"), std::string::npos);
  EXPECT_EQ(count(page, "<details class=\"case\""), 3u);
}

TEST(HtmlReport, EmptySectionsSaySo) {
  LoadedResult r;
  r.path = "empty.json";
  const std::string page = render_html_report({r});
  EXPECT_NE(page.find("No case carries a bandwidth metric and a size."), std::string::npos);
  EXPECT_NE(page.find("No case carries latency percentiles."), std::string::npos);
  EXPECT_NE(page.find("No case carries a matrix."), std::string::npos);
  EXPECT_NE(page.find("No case carries a latency and a size."), std::string::npos);
  EXPECT_EQ(page.find("<svg"), std::string::npos);
}

// A case the survey annotated (core/survey_row.hpp), judged or not.
CaseResult survey_case(const std::string& path, double figure, std::optional<double> expected, const std::string& verdict) {
  CaseResult c;
  c.job = "copy";
  c.name = "survey_" + path;
  c.config = {{"block_bytes", 4 << 20}};
  c.metrics = {{"bandwidth", figure, "GiB/s", ""}};
  annotate_survey_row(c, {path, 4 << 20, "bandwidth"});
  CaseVerdict v;
  v.metric = "bandwidth";
  v.unit = "GiB/s";
  v.actual = figure;
  v.expected = expected;
  if (expected) v.ratio = figure / *expected;
  v.verdict = verdict;
  c.verdict = v;
  return c;
}

TEST(HtmlReport, TheSurveyHasItsTableAndMeasuredAgainstExpected) {
  LoadedResult r;
  r.path = "survey.json";
  r.doc.cases = {survey_case("H2D cpu", 20, 25, "FAIL"), survey_case("D2H cpu", 24, 20, "PASS"),
                 survey_case("D2D cpu", 30, std::nullopt, "unjudged")};
  CaseResult p2p;
  p2p.job = "p2p";
  p2p.name = "survey_p2p";
  p2p.status = CaseStatus::waived;
  p2p.status_reason = "needs two devices";
  annotate_survey_row(p2p, {"P2P", 0, ""});
  r.doc.cases.push_back(p2p);
  const std::string page = render_html_report({r});
  ASSERT_NE(page.find("<h2>Survey</h2>"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"#survey\">survey</a>"), std::string::npos);
  // The survey comes first: before the plots of the same cases.
  EXPECT_LT(page.find("<h2>Survey</h2>"), page.find("<h2>Bandwidth against block size</h2>"));
  EXPECT_EQ(count(page, "<tr class=\"verdict-"), 4u);
  EXPECT_NE(page.find("<tr class=\"verdict-FAIL\"><td>H2D cpu</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"num\">" + format_number(25) + "</td><td class=\"num\">" + format_number(0.8) +
                      "</td><td>FAIL</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<tr class=\"verdict-none\"><td>P2P</td>"), std::string::npos);
  EXPECT_NE(page.find("not measured: needs two devices"), std::string::npos);
  // The bars: one per measured path, a tick where there is an expected figure.
  EXPECT_EQ(count(page, "<svg class=\"xb-plot xb-bullet\""), 1u);
  EXPECT_EQ(count(page, "class=\"xb-mark bar\""), 3u);
  EXPECT_EQ(count(page, "class=\"expected\""), 2u);
  // The copies share one size: they are a table, not one-point plots.
  EXPECT_NE(page.find("measured at one size"), std::string::npos);
  EXPECT_EQ(count(page, "<svg class=\"xb-plot xb-chart\""), 0u);
}

}  // namespace
}  // namespace xb
