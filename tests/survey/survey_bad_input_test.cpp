// Bad input to `survey` and `devices`: exit 2, one line on stderr naming the flag and the rule,
// nothing on stdout, nothing left in the working directory or in --dir.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.hpp"
#include "test_mount.hpp"
#include "survey_test_support.hpp"

namespace xb {
namespace {

TEST(SurveyBadInput, ExitTwoOneLineNothingLeft) {
  test::TempDir cwd, dir;
  const auto file = (dir.path() / "a-file").string();
  std::ofstream(file) << "x";
  const std::string missing = (dir.path() / "missing").string();
  const struct {
    std::vector<std::string> args;
    std::string prefix, expected;
  } cases[] = {
      {{"survey", "--bogus"}, "xferbench survey: ", "--bogus"},
      {{"survey", "--quick", "--full"}, "xferbench survey: ", "--quick and --full: choose one"},
      // Options and no command: the survey's (xferbench --quick).
      {{"--quick", "--full"}, "xferbench survey: ", "--quick and --full: choose one"},
      {{"survey", "--dir", missing}, "xferbench survey: ", "--dir '" + missing + "': no such directory"},
      {{"survey", "--dir", file}, "xferbench survey: ", "--dir " + file + ": not a directory"},
      {{"survey", "--dir", ""}, "xferbench survey: ", "--dir: an empty value"},
      {{"survey", "--json", missing + "/r.json"}, "xferbench survey: ", "--json " + missing + "/r.json: directory"},
      {{"survey", "--json", dir.path().string()}, "xferbench survey: ", "is a directory"},
      {{"survey", "--json", ""}, "xferbench survey: ", "--json: an empty value"},
      {{"survey", "--quick", "extra"}, "xferbench survey: ", "extra"},
      {{"devices", "--dir", missing}, "xferbench devices: ", "--dir '" + missing + "': no such directory"},
      {{"devices", "--dir", file}, "xferbench devices: ", "--dir " + file + ": not a directory"},
      {{"devices", "--bogus"}, "xferbench devices: ", "--bogus"},
      {{"devices", "--format", "csv"}, "xferbench devices: ", "--format csv: devices prints table or json"},
      {{"devices", "--json", "--format", "table"}, "xferbench devices: ", "--json and --format table: choose one"},
      {{"survey", "--format", "csv"}, "xferbench survey: ", "--format csv: the survey prints table or json"},
      {{"survey", "--format", "json", "-o", "r.json"}, "xferbench survey: ", "--format json prints the JSON: no --output"},
      {{"survey", "-o", "a.json", "--json", "b.json"}, "xferbench survey: ", "--output and --json: the same file"},
      {{"survey", "-o", missing + "/r.json"}, "xferbench survey: ", "--json " + missing + "/r.json: directory"},
  };
  for (const auto& c : cases) {
    const auto r = test::run_xferbench_in(cwd.path(), c.args);
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << c.expected << ": " << r.err;
    const auto lines = xbtest::split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind(c.prefix, 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(c.expected), std::string::npos) << lines[0];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(cwd.entries(), std::vector<std::string>{}) << c.expected;
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"a-file"}) << c.expected;
  }
}

// A read-only file system (root ignores permission bits, not MS_RDONLY) for --dir and --json: found
// before the survey runs, not after.
TEST(SurveyBadInput, ReadOnlyDirectoriesAreRefusedUpFront) {
  test::TempDir cwd;
  test::TmpfsMount ro("size=1m", true);
  if (!ro.available()) GTEST_SKIP() << ro.why();
  const struct {
    std::vector<std::string> args;
    std::string expected;
  } cases[] = {
      {{"survey", "--dir", ro.path().string()}, "--dir " + ro.path().string() + ": not writable"},
      {{"survey", "--json", (ro.path() / "r.json").string()},
       "--json " + (ro.path() / "r.json").string() + ": cannot create a file in " + ro.path().string() +
           ": Read-only file system"},
  };
  for (const auto& c : cases) {
    const auto r = test::run_xferbench_in(cwd.path(), c.args);
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.err;
    const auto lines = xbtest::split_lines(r.err);
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_NE(lines[0].find(c.expected), std::string::npos) << lines[0];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(cwd.entries(), std::vector<std::string>{});
  }
}

}  // namespace
}  // namespace xb
