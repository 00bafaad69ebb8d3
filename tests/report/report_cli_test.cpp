// `xferbench report` through the real binary: a page written whole from real results; bad
// results files and bad arguments are exit 2 with one line naming the file or flag, and no page
// (nor a temporary) is left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "report_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::only_line;
using test::run_xferbench;
using test::TempDir;

TEST(ReportCli, WritesOnePageFromRealResults) {
  TempDir dir;
  const auto a = dir.path() / "a.json", b = dir.path() / "b.json", page = dir.path() / "report.html";
  test::make_copy_result(a, "16K");
  test::make_copy_result(b, "256K");
  const auto r = run_xferbench({"report", a.string(), b.string(), "-o", page.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(only_line(r), "report: wrote " + page.string() + " from 2 result files");
  const std::string html = test::read_text(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_NE(html.find("data-marks=\"2\""), std::string::npos);  // both sizes on one line
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"a.json", "b.json", "report.html"}));
  // To stdout with -o -, nothing on stderr with -q.
  const auto s = run_xferbench({"report", a.string(), "-o", "-", "-q"});
  ASSERT_TRUE(s.exited && s.exit_code == 0) << s.describe();
  EXPECT_EQ(s.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(s.err, "");
}

TEST(ReportCli, BadInputIsExitTwoAndLeavesNoPage) {
  TempDir dir;
  const auto good = (dir.path() / "good.json").string();
  test::make_copy_result(good, "16K");
  const auto text = (dir.path() / "text.json").string();
  test::write_text(text, "<html>not a result</html>");
  auto j = test::read_json(good);
  j["schema_version"] = 0;
  const auto old = (dir.path() / "old.json").string();
  test::write_text(old, j.dump());
  j = test::read_json(good);
  j["cases"][0]["config"]["matrix"] = {{"rows", {"a"}}, {"cols", {"b"}}, {"values", {{1, 2}}}, {"unit", "GB/s"}};
  const auto broken = (dir.path() / "broken-matrix.json").string();
  test::write_text(broken, j.dump());
  const auto missing = (dir.path() / "missing.json").string();
  const auto page = (dir.path() / "page.html").string();
  const auto before = dir.entries();

  const struct {
    std::vector<std::string> args;
    std::string expected;
  } cases[] = {
      {{"report", good, text, "-o", page}, "results file " + text + ": not JSON"},
      {{"report", old, "-o", page}, "results file " + old + ": result schema version 0 is not supported"},
      {{"report", good, missing, "-o", page}, "results file " + missing + ": cannot read it: No such file or directory"},
      {{"report", broken, "-o", page}, "results file " + broken + ": case h2d_"},
      {{"report", good}, "-o"},
      {{"report", "-o", page}, "RESULTS"},
      {{"report", good, "-o", dir.path().string()}, "is a directory"},
      {{"report", good, "-o", "/nonexistent-dir/p.html"}, "-o /nonexistent-dir/p.html: directory /nonexistent-dir does not exist"},
      {{"report", good, "-o", good}, "-o " + good + ": is one of the results files"},
      {{"report", good, "-o", page, "--lines", "colour"}, "--lines colour: expected host or file"},
  };
  for (const auto& c : cases) {
    const auto r = run_xferbench(c.args);
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << c.expected << ": " << r.err;
    const std::string line = only_line(r);
    EXPECT_EQ(line.rfind("xferbench report: ", 0), 0u) << line;
    EXPECT_NE(line.find(c.expected), std::string::npos) << line;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(dir.entries(), before) << c.expected;
  }
  EXPECT_EQ(test::read_json(good).at("schema"), "xferbench.result");  // the input was not replaced
}

}  // namespace
}  // namespace xb
