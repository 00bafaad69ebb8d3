// io and kv figures for judging: the path kind from the run's direction, the disk under the files
// (a tmpfs has none: only an absolute rule judges it), a mixed run unjudged with the reason, and
// sum_of (the ceiling of paths used at once).
#include <gtest/gtest.h>

#include "jobs/io/io_config.hpp"
#include "jobs/kv/kv_config.hpp"
#include "judge/storage_figure.hpp"
#include "support/temp_dir.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::has;

CaseResult io_case(const std::string& directory, const std::string& rw, std::optional<unsigned> read_percent = {}) {
  IoConfig config;
  config.directory = directory;
  config.rw = rw;
  config.io_size = 1 << 20;
  config.read_percent = read_percent;
  CaseResult c;
  c.job = "io";
  c.config = config;
  c.metrics.push_back({"throughput", 2.0, "GiB/s", "bytes / wall time"});
  return c;
}

ExpectationLayers with_rule(const std::string& rule) {
  ExpectationLayers l;
  l.builtin = builtin_expectations();
  l.command_line.push_back(parse_expectation_rule(rule, "--expect-rule", 1));
  return l;
}

TEST(StorageFigure, TheDirectionNamesThePathKind) {
  EXPECT_EQ(io_path_kind("read"), "io.read");
  EXPECT_EQ(io_path_kind("randread"), "io.read");
  EXPECT_EQ(io_path_kind("write"), "io.write");
  EXPECT_EQ(io_path_kind("randwrite"), "io.write");
  EXPECT_EQ(io_path_kind("randrw"), "");
}

TEST(StorageFigure, AnIoRunOnATmpfsHasNoDiskAndAnAbsoluteRuleJudgesIt) {
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm here";
  const CaseResult c = io_case("/dev/shm", "randread");
  const JudgedFigure f = io_figure(c, "/sys", "");
  EXPECT_EQ(f.facts.path, "io.read");
  EXPECT_EQ(f.facts.case_metric, "throughput");
  EXPECT_EQ(f.facts.block_bytes, 1u << 20);
  EXPECT_FALSE(f.ceiling.bytes_per_second);
  EXPECT_TRUE(has(f.ceiling.derivation, "/dev/shm is on tmpfs")) << f.ceiling.derivation;
  EXPECT_TRUE(has(f.ceiling.derivation, "which has no block device")) << f.ceiling.derivation;

  const CaseVerdict v = judge_figure(c, f.facts, f.ceiling, with_rule("io.read=1 GiB/s"));
  EXPECT_EQ(v.verdict, "PASS");
  EXPECT_DOUBLE_EQ(*v.ratio, 2.0);
  const CaseVerdict share = judge_figure(c, f.facts, f.ceiling, with_rule("io.read=0.5"));
  EXPECT_EQ(share.verdict, "unjudged");  // a share of an unknown ceiling is no figure
}

TEST(StorageFigure, AMixedRunIsUnjudgedAndSaysWhy) {
  test::TempDir dir;
  const CaseResult c = io_case(dir.path().string(), "randrw", 70);
  const JudgedFigure f = io_figure(c, "/sys", "");
  EXPECT_EQ(f.facts.path, "");
  const CaseVerdict v = judge_figure(c, f.facts, f.ceiling, with_rule("*=1 GB/s"));
  EXPECT_EQ(v.verdict, "unjudged");
  EXPECT_EQ(v.reason, "a mixed run (rw randrw, 70% reads) has no path kind: only read and write runs are judged");
}

TEST(StorageFigure, KvDumpAndLoadAreTheirOwnPathKinds) {
  test::TempDir dir;
  KvConfig config;
  config.op = "dump";
  config.store = dir.path().string();
  config.block_bytes = 65536;
  CaseResult c;
  c.config = config;
  JudgedFigure f = kv_figure(c, "/sys", "srv");
  EXPECT_EQ(f.facts.path, "kv.dump");
  EXPECT_EQ(f.facts.metric, "bandwidth");
  EXPECT_EQ(f.facts.server, "srv");
  EXPECT_EQ(f.facts.block_bytes, 65536u);
  EXPECT_TRUE(has(f.ceiling.derivation, std::filesystem::canonical(dir.path()).string() + " is on ")) << f.ceiling.derivation;
  config.op = "load";
  c.config = config;
  EXPECT_EQ(kv_figure(c, "/sys", "").facts.path, "kv.load");
}

TEST(StorageFigure, AGoneDirectoryIsReadThroughItsNearestAncestor) {
  test::TempDir dir;
  const auto gone = dir.path() / "scratch" / "deeper";
  const StorageCeiling s = storage_ceiling_under("/sys", gone);
  const StorageCeiling parent = storage_ceiling_under("/sys", dir.path());
  EXPECT_EQ(s.disk, parent.disk);
  EXPECT_EQ(s.ceiling.derivation, parent.ceiling.derivation);
  EXPECT_TRUE(has(s.ceiling.derivation, std::filesystem::canonical(dir.path()).string() + " is on")) << s.ceiling.derivation;
  // Not a path at all: the reason, not a throw.
  const StorageCeiling none = storage_ceiling_under("/sys", "");
  EXPECT_FALSE(none.ceiling.bytes_per_second);
  EXPECT_FALSE(none.ceiling.derivation.empty());
}

TEST(CeilingSum, KnownOnlyWhereEveryPartIs) {
  Ceiling a{1e9, 2e9, "a", {"a trained low"}};
  Ceiling b{3e9, std::nullopt, "b", {}};
  Ceiling sum = sum_of({a, b});
  ASSERT_TRUE(sum.bytes_per_second);
  EXPECT_DOUBLE_EQ(*sum.bytes_per_second, 4e9);
  EXPECT_DOUBLE_EQ(*sum.capable_bytes_per_second, 5e9);  // b's capability is its current rate
  EXPECT_EQ(sum.derivation, "a; b");
  EXPECT_EQ(sum.warnings, std::vector<std::string>{"a trained low"});
  const Ceiling unknown{std::nullopt, std::nullopt, "c: no link", {}};
  EXPECT_FALSE(sum_of({a, unknown}).bytes_per_second);
  EXPECT_FALSE(sum_of({}).bytes_per_second);
}

}  // namespace
}  // namespace xb
