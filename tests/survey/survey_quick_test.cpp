// `xferbench survey --quick` end to end: the real jobs on real files in a temporary directory. The
// table has one row per path with a figure (or why not), the results file is a result document
// that `report` and `compare` take, and nothing but the results file is left behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "backends/registry.hpp"
#include "judge/verdict.hpp"
#include "core/survey_row.hpp"
#include "support/temp_dir.hpp"
#include "test_mount.hpp"
#include "survey_test_support.hpp"

namespace xb {
namespace {

bool positive_number(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size() && v > 0;
}

TEST(SurveyQuick, OneRowPerPathAndAResultsFileReportAndCompareTake) {
  test::TempDir cwd, dir;
  const auto json = cwd.path() / "quick.json";
  // -o, the word every command takes for its results file (--json FILE is the older spelling).
  const auto r = test::run_xferbench_in(cwd.path(), {"survey", "--quick", "--dir", dir.path().string(), "-o",
                                                     json.string()});
  // Exit 1 only on a FAIL verdict (checked below): where a path's ceiling is known the built-in
  // shares judge it, and this test asserts no figure.
  ASSERT_TRUE(r.exited && (r.exit_code == 0 || r.exit_code == 1)) << r.describe() << r.out;
  EXPECT_EQ(r.err, "");  // stderr is a pipe here: no progress
  const auto rows = test::table_rows(r.out);
  // The cpu backend has a device per NUMA node: its rows say how many.
  const int n = BackendRegistry::create({})->get("cpu").device_count();
  const std::string cpu = n == 1 ? "cpu (1 device)" : "cpu (" + std::to_string(n) + " devices, all at once)";
  // Measured rows: a positive figure in the job's unit.
  const struct {
    std::string path, size, unit;
  } measured[] = {
      {"H2D " + cpu, "4M", "GiB/s"},                   {"D2H " + cpu, "4M", "GiB/s"},
      {"D2D " + cpu, "4M", "GiB/s"},                   {"host memory copy, *", "4M", "GiB/s"},
      {"storage write (O_DIRECT)", "1M", "GiB/s"},     {"storage read (O_DIRECT)", "1M", "GiB/s"},
      {"storage randread (O_DIRECT)", "4K", "IO/s"},
#ifdef XB_HAVE_UCX
      {"ucx loopback", "8", "us"},                     {"ucx loopback", "1M", "Gb/s"},
#endif
  };
  for (const auto& m : measured) {
    const auto* row = test::find_row(rows, m.path, m.size);
    ASSERT_NE(row, nullptr) << m.path << " " << m.size << " in:\n" << r.out;
    EXPECT_TRUE(positive_number(row->figure)) << row->line;
    EXPECT_EQ(row->unit, m.unit) << row->line;
    // Every measured row shows its verdict, and an expected figure exactly where it was judged.
    EXPECT_TRUE(row->verdict == "PASS" || row->verdict == "WARN" || row->verdict == "FAIL" || row->verdict == "unjudged")
        << row->line;
    EXPECT_EQ(row->verdict == "unjudged", row->expected == "-") << row->line;
  }
  // One device per backend: P2P is a row saying why it was not measured.
  if (n == 1) {
    const auto* p2p = test::find_row(rows, "P2P", "-");
    ASSERT_NE(p2p, nullptr) << r.out;
    EXPECT_NE(p2p->line.find("not measured: needs two devices of one backend (devices: cpu: 1"), std::string::npos)
        << p2p->line;
  }
  EXPECT_NE(r.out.find("\nresults: " + json.string() + " "), std::string::npos) << r.out;

  const ResultDocument doc = test::check_results_file(json, rows.size());
  EXPECT_EQ(r.exit_code, any_failed(doc.cases) ? 1 : 0);
  for (const CaseResult& c : doc.cases) {
    const auto row = survey_row_of(c);
    ASSERT_TRUE(row);
    if (c.job == "p2p" && c.status == CaseStatus::waived) {
      EXPECT_FALSE(c.status_reason.empty());
      continue;
    }
    if (c.status == CaseStatus::waived) {
      // Only what this machine lacks may be waived: a backend module that cannot run here (the
      // cuda module built beside the binary, on a machine without a GPU) is a row saying why.
      EXPECT_EQ(c.status_reason.rfind("backend ", 0), 0u) << c.name << ": " << c.status_reason;
      const auto* line = test::find_row(rows, row->path, "-");
      ASSERT_NE(line, nullptr) << c.name;
      EXPECT_NE(line->line.find("not measured: backend "), std::string::npos) << line->line;
      continue;
    }
    EXPECT_EQ(c.status, CaseStatus::ok) << c.name << ": " << c.status_reason;
    EXPECT_NE(c.find_metric(row->metric), nullptr) << c.name << " " << row->metric;
    // Judged by default, on the row's own figure; unjudged says why (here: cpu arenas, a virtio
    // disk and loopback have no ceiling; IO/s and µs are no bandwidth).
    ASSERT_TRUE(c.verdict) << c.name;
    EXPECT_EQ(c.verdict->metric, row->metric) << c.name;
    EXPECT_EQ(c.verdict->verdict == "unjudged", !c.verdict->reason.empty()) << c.name;
    // Every copy row copies through pinned host memory, the figure the rows and docs/survey.md name.
    if (c.job == "copy") {
      EXPECT_EQ(c.config.at("host_memory"), "pinned") << c.name;
      // The cpu backend's copies use its fastest engine, chosen over every engine and named: the
      // host memory row's path says which.
      if (c.config.at("backend") == "cpu") {
        const auto engines = BackendRegistry::create({})->get("cpu").capabilities().engines;
        const std::string engine = c.config.at("engine");
        EXPECT_NE(std::ranges::find(engines, engine), engines.end()) << c.name;
        if (engines.size() > 1) {
          ASSERT_TRUE(c.config.contains("engine_choice")) << c.name;
          const std::string why = c.config.at("engine_choice");
          for (const auto& e : engines) EXPECT_NE(why.find(e + " "), std::string::npos) << why;
        }
        if (c.config.at("direction") == "h2h") {
          EXPECT_EQ(row->path, "host memory copy, " + engine);
        }
      }
    }
    if (c.job == "io") {
      const auto where = c.config.at("survey").at("storage").at("directory").get<std::string>();
      EXPECT_EQ(where.rfind(std::filesystem::canonical(dir.path()).string(), 0), 0u) << where;
    }
  }
  // The storage file went with the survey's temporary directory; the results file stays.
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
  EXPECT_EQ(cwd.entries(), std::vector<std::string>{"quick.json"});
}

// Also: a command-line rule judges, and a FAIL is exit 1 with every path still reported.
TEST(SurveyQuick, JsonOnStdoutInsteadOfTheTable) {
  test::TempDir cwd;
  const auto r = test::run_xferbench_in(cwd.path(), {"survey", "--quick", "--format", "json", "--expect-rule",
                                                     "copy.h2h=100000 GB/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_EQ(r.err, "");
  const ResultDocument doc = result_from_json(nlohmann::json::parse(r.out));
  EXPECT_GE(doc.cases.size(), 8u);
  // The rule names copies within host memory: host to host, and every copy of the cpu backend (its
  // arenas are host RAM); exactly those fail.
  int failed = 0, within_host_memory = 0;
  for (const CaseResult& c : doc.cases) {
    ASSERT_TRUE(c.verdict) << c.name;
    if (c.job == "copy") {
      const auto& config = c.config;
      within_host_memory += config.value("direction", "") == "h2h" || config.value("backend", "") == "cpu";
    }
    if (c.verdict->verdict != "FAIL") continue;
    ++failed;
    EXPECT_EQ(c.job, "copy") << c.name;
    EXPECT_EQ(c.verdict->rule, "copy.h2h bandwidth ≥ 100000 GB/s");
    EXPECT_EQ(c.verdict->layer, "command line");
  }
  EXPECT_GE(within_host_memory, 1);
  EXPECT_EQ(failed, within_host_memory);
  // The storage steps ran in a temporary directory of the working directory, now gone.
  EXPECT_EQ(cwd.entries(), std::vector<std::string>{});
}

// Storage that cannot hold the survey's file: its rows say why, the other paths are measured, the
// run succeeds and leaves nothing on that file system.
TEST(SurveyQuick, StorageTooSmallIsANotMeasuredRowNotAFailure) {
  test::TempDir cwd;
  test::TmpfsMount small("size=8m");
  if (!small.available()) GTEST_SKIP() << small.why();
  const auto json = cwd.path() / "small.json";
  const auto r = test::run_xferbench_in(cwd.path(), {"survey", "--quick", "--dir", small.path().string(), "--json",
                                                     json.string()});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe() << r.out;
  const auto rows = test::table_rows(r.out);
  for (const std::string path : {"storage write (O_DIRECT)", "storage read (O_DIRECT)"}) {
    const auto* row = test::find_row(rows, path, "1M");
    ASSERT_NE(row, nullptr) << path << " in:\n" << r.out;
    EXPECT_EQ(row->figure, "-") << row->line;
    EXPECT_NE(row->line.find("not measured: " + small.path().string() + " has 8.0 MiB free, the survey's file needs "
                             "128.0 MiB"),
              std::string::npos)
        << row->line;
  }
  const auto* copy = test::find_row(rows, "host memory copy, *", "4M");
  ASSERT_NE(copy, nullptr) << r.out;
  EXPECT_TRUE(positive_number(copy->figure)) << copy->line;
  const ResultDocument doc = test::check_results_file(json, rows.size());
  std::size_t waived = 0;
  for (const auto& c : doc.cases) waived += c.job == "io" && c.status == CaseStatus::waived;
  EXPECT_EQ(waived, 3u);
  EXPECT_TRUE(std::filesystem::is_empty(small.path()));
}

}  // namespace
}  // namespace xb
