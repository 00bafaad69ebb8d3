// Sweeps through the real binary (issue 18 item 1): copy's -s, io's -i and --qd (every IO size ×
// every depth), kv's --block, p2p's -s within a node; each point a case of one result, in order,
// labelled by its size; the table a row per point; bad sweeps exit 2 with nothing run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using xbtest::kBinary;

// The cases' label `key`, in order, of a run that must succeed with JSON on stdout.
std::vector<std::string> labels_of(const std::vector<std::string>& args, const std::string& key) {
  const auto r = xbtest::run_binary(kBinary, args);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  std::vector<std::string> out;
  if (!r.exited || r.exit_code != 0) return out;
  const nlohmann::json doc = nlohmann::json::parse(r.out);  // held: the loop reads into it
  for (const auto& c : doc.at("cases")) {
    EXPECT_EQ(c.at("status"), "ok") << c.dump();
    std::string value;
    for (const auto& l : c.at("labels")) {
      if (l.at("key") == key) value = l.at("value");
    }
    out.push_back(value);
  }
  return out;
}

TEST(SweepCommand, CopySweepsItsBlockSizeACaseEach) {
  EXPECT_EQ(labels_of({"copy", "-s", "4K:16K", "-n", "2", "-i", "2", "--warmup", "0", "--format", "json", "-q"}, "size"),
            (std::vector<std::string>{"4K", "8K", "16K"}));
  EXPECT_EQ(labels_of({"copy", "-s", "64K,4K", "-n", "2", "-i", "2", "--format", "json", "-q"}, "size"),
            (std::vector<std::string>{"64K", "4K"}));
  // The table: one row per point under one header.
  const auto r = xbtest::run_binary(kBinary, {"copy", "-s", "4K:64K:4", "-n", "2", "-i", "2", "-q"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = xbtest::split_lines(r.out);
  ASSERT_GE(lines.size(), 5u) << r.out;
  // One heading that names no single size as the table's, one header, then a row per point.
  EXPECT_EQ(lines[0].rfind("[[ copy ]] 3 cases, a row each (the first: ", 0), 0u) << lines[0];
  int rows = 0;
  for (const auto& line : lines) {
    rows += line.rfind("  cpu::host::all ", 0) == 0 &&
            (line.find(" 4K ") != std::string::npos || line.find(" 16K ") != std::string::npos ||
             line.find(" 64K ") != std::string::npos);
  }
  EXPECT_EQ(rows, 3) << r.out;  // 4K, 16K, 64K
}

TEST(SweepCommand, IoSweepsEveryIoSizeAtEveryQueueDepth) {
  test::TempDir dir;
  const std::vector<std::string> common{"io", "-D", dir.path().string(), "-s", "256K", "--buffered", "--engine",
                                        "io_uring", "--format", "json", "-q"};
  auto args = common;
  args.insert(args.end(), {"--rw", "write", "-i", "4K,16K", "--qd", "1:4:4"});
  EXPECT_EQ(labels_of(args, "io_size"), (std::vector<std::string>{"4K", "4K", "16K", "16K"}));
  EXPECT_EQ(labels_of(args, "qd"), (std::vector<std::string>{"1", "4", "1", "4"}));
}

TEST(SweepCommand, KvAndP2pSweepTheirSizes) {
  test::TempDir store;
  EXPECT_EQ(labels_of({"kv", "dump", "--store", store.path().string(), "-n", "4", "--block", "4K,8K", "--buffered",
                       "--format", "json", "-q"},
                      "block"),
            (std::vector<std::string>{"4K", "8K"}));
  const auto sizes = labels_of({"p2p", "--backend", "cpu", "-s", "64K:128K", "--times", "2", "--format", "json", "-q"}, "size");
  EXPECT_EQ(sizes, (std::vector<std::string>{"64K", "128K"}));
}

// --repetitions N: every case N times, in rounds; compare pools them and tests the difference.
TEST(SweepCommand, RepetitionsRunInRoundsAndCompareTestsThem) {
  test::TempDir dir;
  const auto base = (dir.path() / "base.json").string(), now = (dir.path() / "new.json").string();
  EXPECT_EQ(labels_of({"copy", "-s", "4K,8K", "--repetitions", "3", "-n", "2", "-i", "2", "--format", "json", "-q"},
                      "size"),
            (std::vector<std::string>{"4K", "8K", "4K", "8K", "4K", "8K"}));
  for (const auto& file : {base, now}) {
    const auto r = xbtest::run_binary(kBinary, {"copy", "-s", "4K,8K", "--repetitions", "3", "-n", "2", "-i", "2",
                                                "--format", "json", "-q", "-o", file});
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  const auto r = xbtest::run_binary(kBinary, {"compare", base, now, "--format", "json", "--threshold", "0.001"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("matched"), 2);
  int tested = 0;
  for (const auto& row : doc.at("rows")) {
    EXPECT_EQ(row.at("base_runs"), 3) << row.dump();
    EXPECT_EQ(row.at("new_runs"), 3) << row.dump();
    tested += row.at("p_value").is_number();
  }
  EXPECT_GT(tested, 0);
}

TEST(SweepCommand, BadSweepsAreExitTwoBeforeAnythingRuns) {
  test::TempDir dir;
  const struct {
    std::vector<std::string> args;
    std::string expected;
  } cases[] = {
      {{"copy", "-s", "8K:4K"}, "-s 8K:4K: the minimum is larger than the maximum"},
      {{"copy", "-s", "4K,8K:16K"}, "not both"},
      {{"io", "-D", dir.path().string(), "--qd", "1,,2"}, "--qd 1,,2: an empty point in the list"},
      {{"p2p", "--backend", "cpu", "-s", "1M,2M", "--ip", "127.0.0.2", "--hip", "127.0.0.1"},
       "-s 1M,2M: a sweep runs within a node; across nodes give one size"},
      {{"copy", "--repetitions", "0"}, "--repetitions 0: expected a whole number from 1 to 1000"},
      {{"io", "-D", dir.path().string(), "--engine", "io_uring", "--qd", "0:8"}, "--qd 0:8: a range starts at 1 or more"},
      {{"io", "-D", dir.path().string(), "--qd", "1,2"}, "--qd 1,2: psync has one IO in flight"},
      {{"io", "-D", dir.path().string(), "--engine", "io_uring", "-i", "4K:4M", "--qd", "1:64"},
       "-i 4K:4M and --qd 1:64: 77 points, at most 64 in a sweep"},
      {{"kv", "load", "--store", dir.path().string(), "--block", "4K,8K"},
       "--block 4K,8K: a load reads the one block size its store holds"},
      {{"kv", "dump", "--store", dir.path().string(), "--repetitions", "x"}, "--repetitions x:"},
      {{"p2p", "--backend", "cpu", "--repetitions", "2", "--ip", "127.0.0.2", "--hip", "127.0.0.1"},
       "--repetitions: within a node"},
  };
  for (const auto& c : cases) {
    const auto r = xbtest::run_binary(kBinary, c.args);
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << c.expected << ": " << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
    EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
}

}  // namespace
}  // namespace xb
