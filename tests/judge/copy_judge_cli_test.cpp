// `xferbench copy --judge` through the real binary on the cpu backend: unjudged with the reason
// (host arenas have no PCI link) when no rule names a figure; PASS and FAIL from command-line and
// site rules, in the table's columns and the JSON, exit 1 on a FAIL; a bad rule is exit 2 before
// anything runs.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "run_binary.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

xbtest::RunResult copy(std::vector<std::string> extra) {
  std::vector<std::string> args{"copy", "--backend", "cpu", "--from", "pinned", "--to", "device",
                                "-s", "64K", "-n", "4", "-i", "4", "--warmup", "1", "-d", "1", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return xbtest::run_binary(XB_BINARY, args);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CopyJudge, WithoutARuleTheCaseIsUnjudgedAndSaysWhy) {
  const auto r = copy({"--judge", "--format", "json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "unjudged");
  EXPECT_TRUE(v.at("expected").is_null());
  EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), "cpu::device::0 (cpu arena 0")) << v.dump();
  EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), "has no PCI link")) << v.dump();
}

TEST(CopyJudge, ACommandLineRuleJudgesAndAFailExitsOne) {
  auto r = copy({"--expect-rule", "copy.h2d=0.001 GB/s"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(has(r.out, "expected(GiB/s)")) << r.out;
  EXPECT_TRUE(has(r.out, "verdict")) << r.out;
  EXPECT_TRUE(has(r.out, "PASS")) << r.out;

  r = copy({"--expect-rule", "copy.*=100000 GB/s", "--format", "json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1);
  const auto v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "FAIL");
  EXPECT_EQ(v.at("layer"), "command line");
  EXPECT_EQ(v.at("rule"), "copy.* bandwidth ≥ 100000 GB/s");
  EXPECT_LT(v.at("ratio").get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(v.at("expected").get<double>(), 100000e9 / (1u << 30));
}

TEST(CopyJudge, ASiteFileJudgesAndNamesItsLine) {
  test::TempDir dir;
  const auto site = dir.path() / "site.yaml";
  std::ofstream(site) << "schema: xferbench.expectations\nschema_version: 1\nrules:\n"
                         "  - {path: copy.d2h, expect: 1 GB/s}\n  - {path: copy.h2d, expect: 0.01 GB/s}\n";
  const auto r = copy({"--expect", site.string(), "--format", "json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "PASS");
  EXPECT_EQ(v.at("origin"), site.string() + ":5");
}

TEST(CopyJudge, ABadRuleIsExitTwoBeforeAnythingRuns) {
  const auto r = copy({"--expect-rule", "copy.h2d=fast"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "xferbench copy: --expect-rule 'copy.h2d=fast': ceiling_fraction: 'fast' is not a number\n");
}

TEST(CopyJudge, WithoutJudgeNoVerdictIsWritten) {
  const auto r = copy({"--format", "json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_FALSE(nlohmann::json::parse(r.out).at("cases").at(0).contains("verdict"));
}

}  // namespace
}  // namespace xb
