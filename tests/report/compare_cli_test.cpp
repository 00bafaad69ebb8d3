// `xferbench compare` through the real binary on real result files: an equal run passes, a planted
// regression (one metric scaled down in a real document) is caught with exit 1, a case gone or
// nothing matched fails too, repetitions (comma-separated files) need a significant drop, every
// output format, and bad input (files, --threshold, --alpha, --output) is exit 2 with one line,
// nothing created.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "report_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::only_line;
using test::run_xferbench;
using test::TempDir;

class CompareCli : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(test::make_copy_result(base_, "64K")); }

  // NEW = BASE with the first case's `metric` multiplied by `factor`.
  std::string planted(const std::string& metric, double factor) {
    auto j = test::read_json(base_);
    bool found = false;
    for (auto& m : j.at("cases").at(0).at("metrics")) {
      if (m.at("name") == metric) {
        m["value"] = m.at("value").get<double>() * factor;
        found = true;
      }
    }
    EXPECT_TRUE(found) << metric;
    const auto file = dir_.path() / "new.json";
    test::write_text(file, j.dump(1));
    return file.string();
  }

  TempDir dir_;
  std::filesystem::path base_ = dir_.path() / "base.json";
};

TEST_F(CompareCli, TheSameFileTwicePasses) {
  const auto r = run_xferbench({"compare", base_.string(), base_.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("BASE " + base_.string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bandwidth"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1.000"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("BELOW"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 of 2 compared figures below 0.9"), std::string::npos) << r.out;
}

TEST_F(CompareCli, APlantedRegressionIsCaught) {
  const std::string now = planted("bandwidth", 0.5);
  const auto r = run_xferbench({"compare", base_.string(), now});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  bool marked = false;
  for (const auto& line : xbtest::split_lines(r.out)) {
    if (line.find(" bandwidth ") != std::string::npos) {
      EXPECT_NE(line.find("0.500"), std::string::npos) << line;
      EXPECT_NE(line.find("BELOW"), std::string::npos) << line;
      marked = true;
    }
    if (line.find(" bandwidth_decimal ") != std::string::npos) {
      EXPECT_EQ(line.find("BELOW"), std::string::npos) << line;
    }
  }
  EXPECT_TRUE(marked) << r.out;
  EXPECT_NE(r.out.find("1 of 2 compared figures below 0.9"), std::string::npos) << r.out;
  // Within the threshold: a 5% drop passes at 0.9 and fails at 0.99.
  const std::string slight = planted("bandwidth", 0.95);
  EXPECT_EQ(run_xferbench({"compare", base_.string(), slight}).exit_code, 0);
  EXPECT_EQ(run_xferbench({"compare", base_.string(), slight, "--threshold", "0.99"}).exit_code, 1);
}

TEST_F(CompareCli, JsonAndCsvCarryTheSameVerdict) {
  const std::string now = planted("bandwidth", 0.25);
  const auto js = run_xferbench({"compare", base_.string(), now, "--format", "json"});
  ASSERT_TRUE(js.exited && js.exit_code == 1) << js.describe();
  const auto j = nlohmann::json::parse(js.out);
  EXPECT_EQ(j.at("schema"), "xferbench.compare");
  EXPECT_EQ(j.at("below"), 1);
  EXPECT_EQ(j.at("schema_version"), 2);
  EXPECT_EQ(j.at("base").at(0).at("file"), base_.string());
  EXPECT_EQ(j.at("failed"), true);
  bool seen = false;
  for (const auto& row : j.at("rows")) {
    if (row.at("metric") != "bandwidth") continue;
    EXPECT_NEAR(row.at("ratio").get<double>(), 0.25, 1e-9);
    EXPECT_EQ(row.at("below"), true);
    EXPECT_EQ(row.at("better"), "higher");
    seen = true;
  }
  EXPECT_TRUE(seen);

  const auto csv = run_xferbench({"compare", base_.string(), now, "--format", "csv"});
  ASSERT_TRUE(csv.exited && csv.exit_code == 1) << csv.describe();
  const auto lines = xbtest::split_lines(csv.out);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "job,case,labels,metric,unit,better,base,new,ratio,base_runs,new_runs,p_value,below,note");
  EXPECT_NE(csv.out.find(",bandwidth,GiB/s,higher,"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find(",0.25,1,1,,yes,"), std::string::npos) << csv.out;
}

TEST_F(CompareCli, OutputToAFileIsWrittenWholeAndTheVerdictStays) {
  const std::string now = planted("bandwidth", 0.5);
  const auto out = dir_.path() / "verdict.json";
  const auto r = run_xferbench({"compare", base_.string(), now, "--format", "json", "-o", out.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("1 of 2 compared figures below 0.9"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_json(out).at("below"), 1);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"base.json", "new.json", "verdict.json"}));
}

TEST_F(CompareCli, ACaseGoneFromNewFailsAndNothingMatchedFails) {
  auto j = test::read_json(base_);
  j.at("cases").at(0)["name"] = "renamed_case";
  const auto now = dir_.path() / "renamed.json";
  test::write_text(now, j.dump());
  auto r = run_xferbench({"compare", base_.string(), now.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("only in BASE: copy h2d_"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("only in NEW: copy renamed_case"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n1 case of BASE missing from NEW\n"), std::string::npos) << r.out;
  // The other way round only a case was added: listed, and the gate passes.
  r = run_xferbench({"compare", now.string(), now.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // Nothing in common at all.
  j.at("cases") = nlohmann::json::array({j.at("cases").at(0)});
  const auto other = dir_.path() / "other.json";
  test::write_text(other, j.dump());
  r = run_xferbench({"compare", base_.string(), other.string(), "--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("matched"), 0);
  EXPECT_EQ(doc.at("why").at(0), "no case of BASE matched a case of NEW: nothing was compared");
}

TEST_F(CompareCli, RepetitionsAreCommaSeparatedFilesAndADropMustBeSignificant) {
  // Five repetitions a side: BASE varies by ±2%; NEW is BASE at 0.8 (separated) or at 0.85–1.1
  // around a median below 0.9 (overlapping).
  const auto scaled = [&](const std::string& name, double factor) {
    auto j = test::read_json(base_);
    for (auto& c : j.at("cases")) {
      for (auto& m : c.at("metrics")) m["value"] = m.at("value").get<double>() * factor;
    }
    const auto file = dir_.path() / name;
    test::write_text(file, j.dump());
    return file.string();
  };
  std::string base_list, slower_list, noisy_list;
  const double base_f[] = {1.0, 1.01, 0.99, 1.02, 0.98}, noisy_f[] = {0.85, 1.1, 0.7, 1.05, 0.89};
  for (int i = 0; i < 5; ++i) {
    const std::string sep = i == 0 ? "" : ",";
    base_list += sep + scaled("b" + std::to_string(i) + ".json", base_f[i]);
    slower_list += sep + scaled("s" + std::to_string(i) + ".json", 0.8 * base_f[i]);
    noisy_list += sep + scaled("n" + std::to_string(i) + ".json", noisy_f[i]);
  }
  auto r = run_xferbench({"compare", base_list, slower_list, "--format", "json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("base").size(), 5u);
  bool seen = false;
  for (const auto& row : doc.at("rows")) {
    if (row.at("metric") != "bandwidth") continue;
    EXPECT_EQ(row.at("base_runs"), 5);
    EXPECT_EQ(row.at("new_runs"), 5);
    EXPECT_NEAR(row.at("ratio").get<double>(), 0.8, 1e-9);
    EXPECT_LT(row.at("p_value").get<double>(), 0.05);
    EXPECT_EQ(row.at("below"), true);
    seen = true;
  }
  EXPECT_TRUE(seen) << r.out;
  r = run_xferbench({"compare", base_list, noisy_list});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("not significant (p = "), std::string::npos) << r.out;
  // A stricter level still passes the overlapping runs; a looser one (alpha near 1) fails them.
  r = run_xferbench({"compare", base_list, noisy_list, "--alpha", "0.99"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
}

TEST_F(CompareCli, BadResultFilesAreExitTwoNamingTheFile) {
  const auto text = dir_.path() / "notes.txt";
  test::write_text(text, "bandwidth was fine yesterday\n");
  auto j = test::read_json(base_);
  j["schema_version"] = 99;
  const auto future = dir_.path() / "future.json";
  test::write_text(future, j.dump());
  const auto missing = dir_.path() / "missing.json";
  const struct {
    std::string base, now, expected;
  } cases[] = {
      {base_.string(), text.string(), "results file " + text.string() + ": not JSON"},
      {text.string(), base_.string(), "results file " + text.string() + ": not JSON"},
      {base_.string(), future.string(), "results file " + future.string() + ": result schema version 99 is not supported"},
      {missing.string(), base_.string(), "results file " + missing.string() + ": cannot read it: No such file"},
      {base_.string(), dir_.path().string(), "results file " + dir_.path().string() + ": is a directory"},
  };
  for (const auto& c : cases) {
    const auto r = run_xferbench({"compare", c.base, c.now});
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    const std::string line = only_line(r);
    EXPECT_EQ(line.rfind("xferbench compare: ", 0), 0u) << line;
    EXPECT_NE(line.find(c.expected), std::string::npos) << line;
  }
}

TEST_F(CompareCli, BadArgumentsAreExitTwoWithNothingCreated) {
  const std::string b = base_.string();
  const auto out = (dir_.path() / "out.txt").string();
  const struct {
    std::vector<std::string> args;
    std::string expected;
  } cases[] = {
      {{"compare", b, b, "--threshold", "0"}, "--threshold 0: expected a number greater than 0 and at most 10"},
      {{"compare", b, b, "--threshold", "-0.5"}, "--threshold -0.5:"},
      {{"compare", b, b, "--threshold", "11"}, "--threshold 11:"},
      {{"compare", b, b, "--threshold", "abc"}, "--threshold abc:"},
      {{"compare", b, b, "--threshold", "0.9x"}, "--threshold 0.9x:"},
      {{"compare", b, b, "--threshold", "nan"}, "--threshold nan:"},
      {{"compare", b, b, "--threshold", "inf"}, "--threshold inf:"},
      {{"compare", b}, "NEW"},
      {{"compare", b, b, "--format", "xml", "-o", out}, "--format xml"},
      {{"compare", b, b, "-o", "/nonexistent-dir/x.txt"}, "--output /nonexistent-dir/x.txt: directory"},
      {{"compare", b, b, "--threshold", "0", "-o", out}, "--threshold 0:"},
      {{"compare", b, b, "--alpha", "0"}, "--alpha 0: expected a significance level greater than 0 and below 1"},
      {{"compare", b, b, "--alpha", "1"}, "--alpha 1:"},
      {{"compare", b, b, "--alpha", "x", "-o", out}, "--alpha x:"},
      {{"compare", b + ",", b}, "BASE '" + b + ",': an empty file name in the list"},
      {{"compare", b, b + ",/nonexistent.json"}, "/nonexistent.json"},
  };
  for (const auto& c : cases) {
    const auto r = run_xferbench(c.args);
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << c.expected << ": " << r.err;
    EXPECT_NE(only_line(r).find(c.expected), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"base.json"});
}

}  // namespace
}  // namespace xb
