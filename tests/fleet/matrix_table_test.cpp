// The table renderer shows a case's matrix (report/matrix.hpp) as a grid under the case's row:
// named rows and columns, values in the table's number format, "-" for cells not measured.
#include <gtest/gtest.h>

#include <sstream>

#include "core/matrix.hpp"
#include "report/renderer.hpp"
#include "run_binary.hpp"

namespace xb {
namespace {

CaseResult case_with_matrix() {
  Matrix m;
  m.title = "link bandwidth";
  m.unit = "GB/s";
  m.rows = m.cols = {"rank 0 (a)", "rank 1 (b)", "rank 2 (c)"};
  m.values = {{std::nullopt, 12.5, 3.25}, {11.0, std::nullopt, 10.75}, {9.5, 0.125, std::nullopt}};
  CaseResult c;
  c.job = "fleet";
  c.name = "fleet_matrix";
  c.title = "three ranks";
  c.labels = {{"ranks", "3"}};
  c.config = {{"matrix", matrix_to_json(m)}};
  c.metrics = {{"flagged", 1, "links", ""}};
  return c;
}

TEST(MatrixTable, TheGridFollowsTheCasesRow) {
  ResultDocument doc;
  doc.cases = {case_with_matrix()};
  std::ostringstream out;
  render_table(doc, out);
  const auto lines = xbtest::split_lines(out.str());
  ASSERT_EQ(lines.size(), 8u) << out.str();
  EXPECT_EQ(lines[0], "[[ fleet ]] three ranks");
  EXPECT_EQ(lines[3], "  matrix (GB/s): link bandwidth");
  EXPECT_EQ(lines[4], "  from \\ to   rank 0 (a)  rank 1 (b)  rank 2 (c)");
  EXPECT_EQ(lines[5], "  rank 0 (a)           -      12.500       3.250");
  EXPECT_EQ(lines[6], "  rank 1 (b)      11.000           -      10.750");
  EXPECT_EQ(lines[7], "  rank 2 (c)       9.500       0.125           -");
}

TEST(MatrixTable, ACaseAfterTheGridGetsItsOwnHeader) {
  ResultDocument doc;
  doc.cases = {case_with_matrix(), case_with_matrix()};
  std::ostringstream out;
  render_table(doc, out);
  const auto lines = xbtest::split_lines(out.str());
  ASSERT_EQ(lines.size(), 16u) << out.str();
  EXPECT_EQ(lines[8], "[[ fleet ]] three ranks");
}

TEST(MatrixTable, ABrokenMatrixIsNamedNotFatal) {
  CaseResult c = case_with_matrix();
  c.config["matrix"]["values"] = "not an array";
  ResultDocument doc;
  doc.cases = {c};
  std::ostringstream out;
  render_table(doc, out);
  EXPECT_NE(out.str().find("  matrix not shown: "), std::string::npos) << out.str();
}

}  // namespace
}  // namespace xb
