// The matrix convention (config["matrix"]): what p2p and fleet write and the report reads.
#include "core/matrix.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "support/job_helpers.hpp"

namespace xb {
namespace {

using nlohmann::json;

CaseResult with_matrix(json m) {
  CaseResult c;
  c.job = "p2p";
  c.name = "p2p_matrix";
  c.config = {{"size", 1024}, {"matrix", std::move(m)}};
  return c;
}

TEST(Matrix, RoundTripsThroughTheConvention) {
  Matrix m;
  m.title = "unidirectional";
  m.rows = {"npu0", "npu1"};
  m.cols = {"npu0", "npu1", "npu2"};
  m.values = {{std::nullopt, 164.3, 160.0}, {163.9, std::nullopt, 12.5}};
  m.unit = "GB/s";
  const auto back = case_matrix(with_matrix(matrix_to_json(m)));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->title, "unidirectional");
  EXPECT_EQ(back->rows, m.rows);
  EXPECT_EQ(back->cols, m.cols);
  EXPECT_EQ(back->values, m.values);
  EXPECT_EQ(back->unit, "GB/s");
  EXPECT_TRUE(back->higher_is_better);
}

TEST(Matrix, ACaseWithoutOneHasNone) {
  CaseResult c;
  c.config = {{"block_bytes", 4096}};
  EXPECT_FALSE(case_matrix(c));
  c.config = json();  // no config at all
  EXPECT_FALSE(case_matrix(c));
}

TEST(Matrix, BetterFollowsTheUnitUnlessStated) {
  json m{{"rows", {"a"}}, {"cols", {"b"}}, {"values", {{3.0}}}, {"unit", "us"}};
  EXPECT_FALSE(case_matrix(with_matrix(m))->higher_is_better);
  m["better"] = "higher";
  EXPECT_TRUE(case_matrix(with_matrix(m))->higher_is_better);
  m["unit"] = "Gb/s";
  m.erase("better");
  EXPECT_TRUE(case_matrix(with_matrix(m))->higher_is_better);
}

TEST(Matrix, BreakingTheConventionIsNamed) {
  const json good{{"rows", {"a", "b"}}, {"cols", {"a", "b"}}, {"values", {{1.0, 2.0}, {3.0, nullptr}}}, {"unit", "GB/s"}};
  ASSERT_TRUE(case_matrix(with_matrix(good)));
  const auto error = [&](const std::function<void(json&)>& edit) {
    json m = good;
    edit(m);
    return test::error_of([&] { (void)case_matrix(with_matrix(m)); });
  };
  EXPECT_NE(error([](json& m) { m = "a table"; }).find("must be an object"), std::string::npos);
  EXPECT_NE(error([](json& m) { m.erase("rows"); }).find("\"rows\""), std::string::npos);
  EXPECT_NE(error([](json& m) { m["cols"] = json::array(); }).find("\"cols\""), std::string::npos);
  EXPECT_NE(error([](json& m) { m["cols"] = {"a", 7}; }).find("\"cols\""), std::string::npos);
  EXPECT_NE(error([](json& m) { m.erase("unit"); }).find("\"unit\""), std::string::npos);
  EXPECT_NE(error([](json& m) { m["values"] = {{1.0, 2.0}}; }).find("one array per row (2)"), std::string::npos);
  EXPECT_NE(error([](json& m) { m["values"][1] = {3.0}; }).find("row 1"), std::string::npos);
  EXPECT_NE(error([](json& m) { m["values"][0][1] = "fast"; }).find("neither a number nor null"), std::string::npos);
  EXPECT_NE(error([](json& m) { m["better"] = "faster"; }).find("\"better\""), std::string::npos);
  EXPECT_THROW((void)case_matrix(with_matrix(json{{"rows", 1}})), std::invalid_argument);
}

}  // namespace
}  // namespace xb
