// `xferbench p2p` through the real binary on the cpu backend: one pair both ways in JSON (read back
// through the result model), every pair as a matrix written with -o that `xferbench report` draws,
// the table, and bad input (exit 2, one line naming the flag, nothing on stdout, no file written).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/matrix.hpp"
#include "core/result.hpp"
#include "run_binary.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::metric;

xbtest::RunResult p2p(const std::string& args) {
  auto a = xbtest::split_words(args);
  a.insert(a.begin(), "p2p");
  return xbtest::run_binary(XB_BINARY, a);
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(P2pCommand, OnePairBothWaysInJson) {
  const auto r = p2p("--src 1 --dst 0 -s 1M --times 4 --direction both --verify --format json -q");
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.err, "") << "-q: nothing on stderr";
  const ResultDocument doc = result_from_json(nlohmann::json::parse(r.out));
  ASSERT_EQ(doc.cases.size(), 2u);
  for (const auto& c : doc.cases) {
    EXPECT_EQ(c.job, "p2p");
    ASSERT_EQ(c.status, CaseStatus::ok);
    EXPECT_EQ(c.label("from"), "cpu::device::1");
    EXPECT_EQ(c.label("to"), "cpu::device::0");
    EXPECT_EQ(c.label("size"), "1M");
    EXPECT_EQ(c.find_series("elapsed")->samples.size(), 4u);
    const double bytes = (1 << 20) * (c.name == "p2p_bidirectional" ? 2.0 : 1.0);
    EXPECT_NEAR(metric(c, "bandwidth"), bytes / metric(c, "elapsed_avg") / 1e3, 1e-6);
    EXPECT_TRUE(c.config.at("verify").get<bool>());
  }
  EXPECT_EQ(doc.cases[0].name, "p2p_unidirectional");
  EXPECT_EQ(doc.cases[1].name, "p2p_bidirectional");
}

TEST(P2pCommand, AllPairsMatrixThatTheReportDraws) {
  test::TempDir dir;
  const auto json = dir.path() / "p2p.json";
  const auto r = p2p("--all-pairs --devices 3 -s 64K --times 2 --bidirectional --format json -q -o " + json.string());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.out, "") << "the result went to the file";
  const ResultDocument doc = result_from_json(nlohmann::json::parse(read_file(json)));
  ASSERT_EQ(doc.cases.size(), 3u + 1u) << "3 unordered pairs both ways, then the matrix";
  const auto m = case_matrix(doc.cases.back());
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->rows.size(), 3u);
  EXPECT_EQ(m->values[0][1], m->values[1][0]) << "both ways: one experiment, both cells";
  const auto html = dir.path() / "report.html";
  const auto rep = xbtest::run_binary(XB_BINARY, {"report", json.string(), "-o", html.string(), "-q"});
  ASSERT_TRUE(rep.exited && rep.exit_code == 0) << rep.describe();
  const std::string page = read_file(html);
  EXPECT_NE(page.find("cpu0"), std::string::npos);
  EXPECT_NE(page.find("cpu2"), std::string::npos);
}

TEST(P2pCommand, TableByDefault) {
  const auto r = p2p("-s 4K --times 2 -q");
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("[[ p2p ]] p2p cpu::device::0 -> cpu::device::1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bandwidth(GB/s)"), std::string::npos) << r.out;
}

TEST(P2pCommand, BadInputNamesTheFlag) {
  test::TempDir dir;
  const auto out = dir.path() / "never.json";
  const std::pair<std::string, std::string> cases[] = {
      {"-s 0", "-s 0:"},
      {"-s 5G", "-s 5368709120: expected a size from 1 byte to 4294967296 bytes"},
      {"-s lots", "-s"},
      {"--times 0", "--times 0:"},
      {"--times 100000001", "--times 100000001:"},
      {"--src 1 --dst 1", "--dst 1: the same device as --src"},
      {"--ds 3 --dd 3", "--dst 3: the same device as --src"},
      {"--all-pairs --src 1", "--all-pairs: not with --src/--ds"},
      {"--devices 3", "--devices: only with --all-pairs"},
      {"--all-pairs --devices 1", "--devices 1: a matrix needs 2 devices at least"},
      {"--direction sideways", "--direction sideways: expected uni, bi or both"},
      {"--direction uni --bidirectional", "--bidirectional: not with --direction uni"},
      {"--engine warp", "--engine warp: the cpu backend's engines are"},
      {"--backend nosuch", ""},
      {"--format xml", "--format xml:"},
  };
  for (const auto& [args, expected] : cases) {
    SCOPED_TRACE(args);
    const auto r = p2p(args + " -o " + out.string());
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("xferbench p2p: " + expected, 0), 0u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << "nothing written";
  }
}

}  // namespace
}  // namespace xb
