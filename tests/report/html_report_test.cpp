// The page as text: self-contained (nothing it could fetch), hostile strings from every field of a
// result document rendered as text, and each section present with its plots.
#include "report/html_report.hpp"

#include <gtest/gtest.h>

#include <string>
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
  // One bandwidth chart of both sizes, latency charts (metrics and the series), two heat maps.
  EXPECT_EQ(count(page, "<svg class=\"xb-plot xb-chart\""), 3u);
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
  EXPECT_EQ(page.find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace xb
