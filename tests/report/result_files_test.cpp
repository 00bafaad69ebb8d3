// Reading results files back: a real document round-trips; a missing file, a directory, a file
// that is not JSON, another kind of JSON, an unknown schema version and a cut document are each
// one UsageError naming the file and the problem.
#include "report/result_files.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "report_fixtures.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::TempDir;

std::string load_error(const std::string& path) {
  try {
    (void)load_result_file(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

TEST(ResultFiles, ARealDocumentRoundTrips) {
  TempDir dir;
  const auto file = dir.path() / "copy.json";
  test::make_copy_result(file, "64K");
  const LoadedResult r = load_result_file(file.string());
  EXPECT_EQ(r.path, file.string());
  ASSERT_FALSE(r.doc.cases.empty());
  EXPECT_EQ(r.doc.cases[0].job, "copy");
  EXPECT_EQ(to_json(r.doc), test::read_json(file));
}

TEST(ResultFiles, EachProblemIsOneLineNamingTheFile) {
  TempDir dir;
  const auto p = [&](const char* name) { return (dir.path() / name).string(); };
  test::write_text(p("text.json"), "hello, not json\n");
  test::write_text(p("empty.json"), "");
  test::write_text(p("other.json"), R"({"name": "some other tool", "results": []})");
  test::write_text(p("array.json"), "[1, 2]");
  test::write_text(p("future.json"), R"({"schema": "xferbench.result", "schema_version": 99, "cases": []})");
  test::write_text(p("cut.json"), R"({"schema": "xferbench.result", "schema_version": 1, "program": {"version": "1"}})");
  test::write_text(p("badcase.json"),
                   R"({"schema": "xferbench.result", "schema_version": 1, "program": {"version": "1"},
                       "machine": {}, "cases": [{"job": 5}]})");

  const struct {
    std::string path, expected;
  } cases[] = {
      {p("missing.json"), "cannot read it: No such file or directory"},
      {dir.path().string(), "is a directory"},
      {p("text.json"), "not JSON (parse error at line 1"},
      {p("empty.json"), "not JSON"},
      {p("other.json"), "not an xferbench result document"},
      {p("array.json"), "not an xferbench result document"},
      {p("future.json"), "result schema version 99 is not supported (this xferbench reads 1 to 2)"},
      {p("cut.json"), "malformed result document"},
      {p("badcase.json"), "malformed result document"},
  };
  for (const auto& c : cases) {
    const std::string what = load_error(c.path);
    EXPECT_EQ(what.rfind("results file " + c.path + ": ", 0), 0u) << what;
    EXPECT_NE(what.find(c.expected), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.find("[json.exception"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace xb
