// `xferbench kv` and `xferbench dev-sandbox aio` through the real binary: round trips in every
// output format, a missing block (exit 1, named), bad input (exit 2, one line naming the flag,
// nothing created), and the aio dialect's two tables.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "run_binary.hpp"
#include "storage/kv_store.hpp"

namespace xb {
namespace {

using test::TempDir;

xbtest::RunResult kv(const std::string& args) {
  auto a = xbtest::split_words(args);
  a.insert(a.begin(), "kv");
  return xbtest::run_binary(XB_BINARY, a);
}

std::string expand(std::string s, const TempDir& dir) {
  const auto put = [&](const std::string& key, const std::string& value) {
    for (auto at = s.find(key); at != std::string::npos; at = s.find(key)) s.replace(at, key.size(), value);
  };
  put("{file}", (dir.path() / "plain-file").string());
  put("{dir}", dir.path().string());
  return s;
}

TEST(KvCommand, DumpThenVerifiedLoadInEveryFormat) {
  TempDir dir;
  const std::string s = " --store " + dir.path().string() + " -n 12 --block 128K -w 2";
  const auto d = kv("dump" + s + " --sync end --format json");
  ASSERT_TRUE(d.exited && d.exit_code == 0) << d.describe();
  const auto j = nlohmann::json::parse(d.out);
  const auto& c = j.at("cases").at(0);
  EXPECT_EQ(c.at("job"), "kv");
  EXPECT_EQ(c.at("config").at("blocks"), 12);
  EXPECT_EQ(c.at("config").at("sync"), "end");
  std::vector<std::string> metrics;
  for (const auto& m : c.at("metrics")) metrics.push_back(m.at("name"));
  for (const char* want : {"blocks_per_s", "bandwidth", "latency_min", "latency_avg", "latency_p50", "latency_p90",
                           "latency_p99", "latency_p99.9", "latency_max"}) {
    EXPECT_NE(std::find(metrics.begin(), metrics.end(), want), metrics.end()) << want;
  }
  const auto t = kv("load" + s + " --verify --to device");
  EXPECT_TRUE(t.exited && t.exit_code == 0) << t.describe();
  EXPECT_NE(t.out.find("into cpu::device::0 memory"), std::string::npos) << t.out;
  const auto csv = kv("load" + s + " --verify --format csv");
  EXPECT_TRUE(csv.exited && csv.exit_code == 0) << csv.describe();
  EXPECT_NE(csv.out.find("latency_p99.9"), std::string::npos) << csv.out;
}

TEST(KvCommand, MissingBlockIsARunFailureNamingIt) {
  TempDir dir;
  const std::string s = " --store " + dir.path().string() + " -n 8 --block 64K";
  ASSERT_EQ(kv("dump" + s + " --quiet").exit_code, 0);
  std::filesystem::remove(kv_block_path(dir.path(), 3));
  const auto r = kv("load" + s + " --verify");
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("block 3 is missing from the store: " + kv_block_path(dir.path(), 3).string()), std::string::npos)
      << r.err;
}

TEST(KvCommand, BadInputIsOneLineNamingTheFlagAndCreatesNothing) {
  struct Case {
    const char* args;
    const char* flag;
  };
  const Case cases[] = {
      {"dump --store {dir} -n 0", "-n 0"},
      {"dump --store {dir} -w 0", "-w 0"},
      {"dump --store {dir} --block 0", "--block 0"},
      {"dump --store {dir} --block 1000", "--block 1000"},
      {"dump --store {dir} --sync sometimes", "--sync sometimes"},
      {"load --store {dir} --to disk", "--to disk"},
      {"dump --store {dir} --to host", "--to host"},
      {"load --store {dir} --sync end", "--sync end"},
      {"dump --store {dir} --verify", "--verify"},
      {"dump --store {file}", "--store {file}"},
      {"dump --store {dir}/missing", "--store {dir}/missing"},
      {"dump", "--store"},
      {"scribble --store {dir}", "kv scribble"},
      {"--store {dir}", "dump or load"},
      {"load --store {dir} --to device --device 99999999", "--device"},
  };
  for (const auto& c : cases) {
    TempDir dir;
    { std::ofstream(dir.path() / "plain-file") << "x"; }
    const auto r = kv(expand(c.args, dir));
    EXPECT_TRUE(r.exited && r.exit_code == 2) << c.args << ": " << r.describe();
    EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(expand(c.flag, dir)), std::string::npos) << c.args << ": " << r.err;
    EXPECT_EQ(dir.tree(), std::vector<std::string>{"plain-file"}) << c.args;  // nothing created
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
}

TEST(KvCommand, CtrlCInTheMiddleOfADumpLeavesNoTemporaryAndNoTornBlock) {
  TempDir dir;
  const std::uint64_t block = 256u << 10;
  auto p = xbtest::start_binary(XB_BINARY, {"kv", "dump", "--store", dir.path().string(), "-n", "4000", "--block",
                                            "256K", "-w", "4", "--sync", "block", "--quiet"});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  p.signal_group(SIGINT);
  const auto r = p.wait_for(std::chrono::seconds(60));
  ASSERT_TRUE(r.has_value());
  // Interrupted (the usual case) or, on a very fast disk, done: either way no temporary is left and
  // every block under its real name is whole.
  EXPECT_TRUE((!r->exited && r->term_signal == SIGINT) || (r->exited && r->exit_code == 0)) << r->describe();
  for (const auto& e : dir.tree()) {
    EXPECT_EQ(e.find(".tmp-"), std::string::npos) << e;
    if (e.size() == 2 + 1 + 2 + 1 + 16) {
      EXPECT_EQ(std::filesystem::file_size(dir.path() / e), block) << e;
    }
  }
}

// The aio table: a "[[ name ]] title" line, the header, one row whose columns sit under the header's.
void expect_aio_table(const std::vector<std::string>& lines, std::size_t at, const std::string& name,
                      const std::string& from, const std::string& to, const std::string& count) {
  ASSERT_GT(lines.size(), at + 2);
  EXPECT_EQ(lines[at].rfind("[[ " + name + " ]] ", 0), 0u) << lines[at];
  const std::string& header = lines[at + 1];
  EXPECT_EQ(header,
            "  From              To                Method    Size(KB)  Count   Block(us)-(Min/Max/Avg/P50/P90)         "
            "BW(GB/s)");
  const std::string& row = lines[at + 2];
  EXPECT_EQ(row.substr(0, 2 + 18), "  " + from + std::string(18 - from.size(), ' '));
  EXPECT_EQ(row.substr(20, 18), to + std::string(18 - to.size(), ' '));
  EXPECT_EQ(row.substr(38, 10), "DIO-W2    ");
  EXPECT_EQ(row.substr(48, 10), "64        ");
  EXPECT_EQ(row.substr(58, 8), count + std::string(8 - count.size(), ' '));
  const auto stats = xbtest::split_words(row.substr(66, 40));
  ASSERT_EQ(stats.size(), 9u) << row;  // five numbers, four slashes
  for (std::size_t i = 1; i < stats.size(); i += 2) EXPECT_EQ(stats[i], "/");
  const std::string bw = row.substr(106);
  EXPECT_NE(bw.find('.'), std::string::npos) << row;
  EXPECT_EQ(bw.size() - bw.find('.'), 4u) << row;  // three decimals
  EXPECT_GT(std::stod(bw), 0) << row;
}

TEST(DevSandboxAio, DumpsLoadsPrintsTwoTablesAndRemovesItsBlocks) {
  TempDir dir;
  const auto r = xbtest::run_binary(
      XB_BINARY, {"dev-sandbox", "aio", "--dir", dir.path().string(), "-s", "64K", "-n", "6", "-i", "2", "-w", "2",
                  "--verify"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = xbtest::split_lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  expect_aio_table(lines, 0, "aio_dump_to_posix_store", "host::all", "posix::store", "12");
  expect_aio_table(lines, 3, "aio_load_from_posix_store", "posix::store", "host::all", "12");
  EXPECT_TRUE(dir.tree().empty());  // its blocks and fan-out directories are gone
}

TEST(DevSandboxAio, KeepLeavesALoadableStore) {
  TempDir dir;
  const auto r = xbtest::run_binary(XB_BINARY, {"dev-sandbox", "aio", "--dir", dir.path().string(), "-s", "64K", "-n",
                                                "5", "-w", "2", "--keep", "--sync", "block"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("with pwrite and O_DIRECT using 2 threads, sync block\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("with pread and O_DIRECT using 2 threads\n"), std::string::npos) << r.out;
  const auto l = kv("load --store " + dir.path().string() + " -n 5 --block 64K --verify");
  EXPECT_TRUE(l.exited && l.exit_code == 0) << l.describe();
}

// UCM's aio module's own options: --workspace, --io-size, --io-number, --epoch-number, and
// --device-id, which loads on into that device's memory.
TEST(DevSandboxAio, UcmsOwnSpellingsAndALoadIntoADevice) {
  TempDir dir;
  const auto r = xbtest::run_binary(XB_BINARY, {"dev-sandbox", "aio", "--workspace", dir.path().string(), "--io-size",
                                                "64K", "--io-number", "6", "--epoch-number", "2", "--device-id", "1",
                                                "--io-type", "alloc", "-w", "2", "--verify"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = xbtest::split_lines(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  expect_aio_table(lines, 0, "aio_dump_to_posix_store", "host::all", "posix::store", "12");
  expect_aio_table(lines, 3, "aio_load_from_posix_store", "posix::store", "cpu::device::1", "12");
  EXPECT_NE(lines[3].find("load kv blocks from posix store to device with pread"), std::string::npos) << lines[3];
  EXPECT_TRUE(dir.tree().empty());
}

TEST(DevSandboxAio, BadInputIsOneLineAndCreatesNothing) {
  TempDir dir;
  const std::string d = dir.path().string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"dev-sandbox", "aio"}, "--dir"},
      {{"dev-sandbox", "aio", "--dir", d + "/missing"}, "--dir " + d + "/missing"},
      {{"dev-sandbox", "aio", "--dir", d, "-n", "0"}, "-n 0"},
      {{"dev-sandbox", "aio", "--dir", d, "-s", "1000"}, "-s 1000"},
      {{"dev-sandbox", "aio", "--dir", d, "--iodirect", "maybe"}, "--iodirect maybe"},
      {{"dev-sandbox", "aio", "--dir", d, "--sync", "later"}, "--sync later"},
      {{"dev-sandbox", "aio", "--workspace", d, "--io-number", "0"}, "--io-number 0"},
      {{"dev-sandbox", "aio", "--workspace", d, "--io-size", "1000"}, "--io-size 1000"},
      {{"dev-sandbox", "aio", "--dir", d, "--workspace", d}, "--dir / --workspace"},
      {{"dev-sandbox", "aio", "--dir", d, "-n", "2", "--io-number", "2"}, "-n / --io-number"},
      {{"dev-sandbox", "aio", "--workspace", d, "--io-type", "shm"}, "--io-type shm"},
      {{"dev-sandbox", "aio", "--workspace", d, "--device-id", "x"}, "--device-id"},
  };
  for (const auto& [args, flag] : cases) {
    const auto r = xbtest::run_binary(XB_BINARY, args);
    EXPECT_TRUE(r.exited && r.exit_code == 2) << flag << ": " << r.describe();
    EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << flag << ": " << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << flag << ": " << r.err;
    EXPECT_TRUE(dir.tree().empty()) << flag;
  }
}

}  // namespace
}  // namespace xb
