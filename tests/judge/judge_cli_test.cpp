// The judged jobs through the real binary. copy on the cpu backend: unjudged with the reason (host
// arenas have no PCI link) when no rule names a figure; PASS and FAIL from command-line and site
// rules, in the table's columns and the JSON, exit 1 on a FAIL; a bad rule is exit 2 before
// anything runs. io and kv: set against the disk under their files (this VM's virtio disk has no
// link: unjudged, naming it) and judged by an absolute rule; a bad rule creates no file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_binary.hpp"
#include "support/temp_dir.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

xbtest::RunResult copy(std::vector<std::string> extra) {
  std::vector<std::string> args{"copy", "--backend", "cpu", "--from", "pinned", "--to", "device",
                                "-s", "64K", "-n", "4", "-i", "4", "--warmup", "1", "-d", "1", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return xbtest::run_binary(XB_BINARY, args);
}

using test::has;

TEST(CopyJudge, WithoutARuleTheCaseIsUnjudgedAndSaysWhy) {
  const auto r = copy({"--judge", "--format", "json"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "unjudged");
  EXPECT_TRUE(v.at("expected").is_null());
  // The cpu backend's arenas are host RAM without a link of their own: a copy within host memory,
  // judged as copy.h2h against the memory (unknown on a machine whose firmware has no table).
  EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), "h2d within host memory (cpu::device::0 is host RAM): "))
      << v.dump();
  EXPECT_TRUE(has(v.at("reason").get<std::string>(), "copy.h2h bandwidth")) << v.dump();
}

TEST(CopyJudge, ACommandLineRuleJudgesAndAFailExitsOne) {
  auto r = copy({"--expect-rule", "copy.h2h=0.001 GB/s"});
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
                         "  - {path: copy.d2h, expect: 1 GB/s}\n  - {path: copy.h2h, expect: 0.01 GB/s}\n";
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

// io and kv: the path kind from the run, the disk under the directory in the derivation.
TEST(IoJudge, AWriteAndAReadAreJudgedByTheirOwnPathKinds) {
  test::TempDir dir;
  const std::vector<std::string> common{"-D", dir.path().string(), "-s", "1M", "-i", "64K", "--quiet", "--format", "json"};
  auto args = std::vector<std::string>{"io", "--rw", "write", "--expect-rule", "io.write=100000 GB/s",
                                       "--expect-rule", "io.read=0.000001 GB/s"};
  args.insert(args.end(), common.begin(), common.end());
  auto r = xbtest::run_binary(XB_BINARY, args);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  auto v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "FAIL");
  EXPECT_EQ(v.at("metric"), "throughput");
  EXPECT_EQ(v.at("rule"), "io.write bandwidth ≥ 100000 GB/s");
  EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), " is on ")) << v.dump();

  args = {"io", "--rw", "randread", "--expect-rule", "io.write=100000 GB/s", "--expect-rule", "io.read=0.000001 GB/s"};
  args.insert(args.end(), common.begin(), common.end());
  r = xbtest::run_binary(XB_BINARY, args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "PASS");
  EXPECT_EQ(v.at("rule"), "io.read bandwidth ≥ 0.000001 GB/s");
}

TEST(IoJudge, ABadRuleIsExitTwoAndWritesNoFile) {
  test::TempDir dir;
  const auto r = xbtest::run_binary(XB_BINARY, {"io", "-D", dir.path().string(), "--rw", "write", "-s", "1M",
                                                "--expect-rule", "io.writ=1 GB/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--expect-rule 'io.writ=1 GB/s'")) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(KvJudge, ADumpAndALoadAreJudgedAgainstTheDiskUnderTheStore) {
  test::TempDir dir;
  const std::string store = std::filesystem::canonical(dir.path()).string();
  const std::vector<std::string> blocks{"--store", store, "--blocks", "8", "--block", "64K", "--quiet", "--format", "json"};
  auto args = std::vector<std::string>{"kv", "dump", "--judge"};
  args.insert(args.end(), blocks.begin(), blocks.end());
  auto r = xbtest::run_binary(XB_BINARY, args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  auto v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  // The built-in share of the disk's ceiling, or unjudged where the disk reports none (this VM's
  // virtio disk); either way the derivation starts from the store's directory.
  EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), store + " is on ")) << v.dump();
  EXPECT_EQ(v.at("verdict") == "unjudged", v.at("expected").is_null()) << v.dump();

  args = {"kv", "load", "--expect-rule", "kv.load=100000 GB/s"};
  args.insert(args.end(), blocks.begin(), blocks.end());
  r = xbtest::run_binary(XB_BINARY, args);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "FAIL");
  EXPECT_EQ(v.at("rule"), "kv.load bandwidth ≥ 100000 GB/s");
}

// link over loopback: the peer is this host (no network device, said so); an absolute rule judges
// every size; a server refuses the judging flags (they are the measuring side's).
TEST(LinkJudge, OnThisHostOnlyAnAbsoluteRuleJudges) {
  auto r = xbtest::run_binary(XB_BINARY, {"link", "--transport", "tcp", "-s", "64K:128K", "-i", "3", "-x", "1", "--quiet",
                                          "--format", "json", "--judge"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  auto cases = nlohmann::json::parse(r.out).at("cases");
  ASSERT_EQ(cases.size(), 2u);
  for (const auto& c : cases) {
    const auto& v = c.at("verdict");
    EXPECT_EQ(v.at("verdict"), "unjudged");
    EXPECT_EQ(v.at("reason"), "no rule with a figure applies to link bandwidth, and its ceiling is unknown");
    EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), "this host: loopback, no network device")) << v.dump();
  }
  r = xbtest::run_binary(XB_BINARY, {"link", "--transport", "tcp", "-s", "64K:128K", "-i", "3", "-x", "1", "--quiet",
                                     "--format", "json", "--expect-rule", "link=100000 Gb/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  cases = nlohmann::json::parse(r.out).at("cases");
  for (const auto& c : cases) EXPECT_EQ(c.at("verdict").at("verdict"), "FAIL") << c.dump();

  r = xbtest::run_binary(XB_BINARY, {"link", "--listen", "127.0.0.1:0", "--judge"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--judge: a client flag")) << r.err;
}

// p2p within a node: each pair, and the matrix's lowest cell; the cpu backend's arenas have no PCI
// link, so only an absolute rule judges. Across nodes the judging flags are refused.
TEST(P2pJudge, PairsAndTheMatrixsLowestCell) {
  auto r = xbtest::run_binary(XB_BINARY, {"p2p", "--backend", "cpu", "-s", "1M", "--times", "3", "--quiet", "--format",
                                          "json", "--judge"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  auto v = nlohmann::json::parse(r.out).at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("verdict"), "unjudged");
  EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), "cpu::device::0 (")) << v.dump();
  EXPECT_TRUE(has(v.at("ceiling_derivation").get<std::string>(), "has no PCI link")) << v.dump();

  r = xbtest::run_binary(XB_BINARY, {"p2p", "--backend", "cpu", "--all-pairs", "--devices", "2", "-s", "1M", "--times",
                                     "3", "--quiet", "--format", "json", "--expect-rule", "p2p=100000 GB/s"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  int matrices = 0;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& c : doc.at("cases")) {
    const auto& verdict = c.at("verdict");
    EXPECT_EQ(verdict.at("verdict"), "FAIL") << c.dump();
    if (c.at("config").contains("matrix")) {
      ++matrices;
      EXPECT_EQ(verdict.at("metric"), "bandwidth_min");
    }
  }
  EXPECT_EQ(matrices, 1);

  r = xbtest::run_binary(XB_BINARY, {"p2p", "--backend", "cpu", "--ip", "127.0.0.2", "--hip", "127.0.0.1", "--judge"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(r.err, "xferbench p2p: --judge: p2p within a node only (across nodes the fleet judges; docs/judge.md)\n");
}

}  // namespace
}  // namespace xb
