// `xferbench` with no arguments is the default survey: the results file lands in the working
// directory as xferbench-survey.json, the storage directory made there is gone afterwards. Its
// ctest TIMEOUT (CMakeLists.txt) bounds the run; no timing is asserted here.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.hpp"
#include "survey_test_support.hpp"

namespace xb {
namespace {

TEST(SurveyDefault, NoArgumentsRunsTheSurvey) {
  test::TempDir cwd;
  const auto r = test::run_xferbench_in(cwd.path(), {});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << r.out;
  EXPECT_EQ(r.err, "");
  const auto rows = test::table_rows(r.out);
  EXPECT_NE(test::find_row(rows, "host memory copy, *", "4M"), nullptr) << r.out;
  EXPECT_NE(test::find_row(rows, "storage randread (O_DIRECT)", "4K"), nullptr) << r.out;
  EXPECT_NE(r.out.find("\nresults: xferbench-survey.json "), std::string::npos) << r.out;
  EXPECT_EQ(cwd.entries(), std::vector<std::string>{"xferbench-survey.json"});
  const ResultDocument doc = test::check_results_file(cwd.path() / "xferbench-survey.json", rows.size());
  // The default survey and `survey` with no flags are one thing: the command line says which ran.
  EXPECT_EQ(doc.command_line.size(), 1u);
}

}  // namespace
}  // namespace xb
