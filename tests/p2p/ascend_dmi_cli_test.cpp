// The ascend-dmi dialect end to end: `xferbench ascend-dmi` and the binary invoked through its
// ascend-dmi link, measuring this node's pair on the cpu backend. Both blocks checked line by line
// (title, Pod line with this host's name, rules, header) and the row parsed and checked against its
// own figures; every rule of the seed's parameter table as bad input: exit 2, one line naming the
// flag and the rule, nothing on stdout.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <sstream>

#include "jobs/p2p/p2p_metrics.hpp"
#include "run_binary.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

xbtest::RunResult dmi(const std::vector<std::string>& args, bool via_link = false) {
  if (via_link) return xbtest::run_binary(XB_ASCEND_DMI_LINK, args);
  auto a = args;
  a.insert(a.begin(), "ascend-dmi");
  return xbtest::run_binary(XB_BINARY, a);
}

std::string host() {
  std::array<char, 256> name{};
  gethostname(name.data(), name.size() - 1);
  return name.data();
}

struct Row {
  std::uint64_t size = 0, times = 0;
  double bandwidth = 0, elapsed = 0;
};

// Checks one block starting at lines[at] and returns its row.
Row check_block(const std::vector<std::string>& lines, std::size_t at, bool bidirectional, const std::string& pods) {
  const std::string rule(64, '-');
  EXPECT_EQ(lines.at(at), bidirectional ? "Bidirectional Peer to Peer Test" : "Unidirectional Peer to Peer Test");
  EXPECT_EQ(lines.at(at + 1), pods);
  EXPECT_EQ(lines.at(at + 2), rule);
  EXPECT_EQ(lines.at(at + 3), "  Size(Bytes)  Execute Times  Bandwidth(GB/s)  Elapsed Time(us)");
  EXPECT_EQ(lines.at(at + 4), rule);
  EXPECT_EQ(lines.at(at + 6), rule);
  EXPECT_EQ(lines.at(at + 7), "");
  const std::string& row = lines.at(at + 5);
  EXPECT_GE(row.size(), 57u) << row;
  // The seed's columns: right-aligned in 12, 11, 20 and 14 characters; 6 and 2 decimals.
  Row r;
  std::istringstream in(row);
  std::string bw, el;
  in >> r.size >> r.times >> bw >> el;
  EXPECT_TRUE(in && in.eof()) << row;
  EXPECT_EQ(bw.size() - bw.find('.'), 7u) << row;
  EXPECT_EQ(el.size() - el.find('.'), 3u) << row;
  EXPECT_EQ(row.find(std::to_string(r.size)) + std::to_string(r.size).size(), 12u) << row;
  EXPECT_EQ(row.find(bw) + bw.size(), 43u) << row;
  EXPECT_EQ(row.size(), 57u) << row;
  r.bandwidth = std::stod(bw);
  r.elapsed = std::stod(el);
  return r;
}

TEST(AscendDmiCommand, ThisNodesPairThroughTheCommandAndTheLink) {
  for (const bool via_link : {false, true}) {
    SCOPED_TRACE(via_link ? "link" : "command");
    const auto r = dmi({"--bw", "-t", "p2p", "--ds", "1", "--dd", "0", "-s", "1048576", "--et", "3", "-q"}, via_link);
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    EXPECT_EQ(r.err, "");
    const auto lines = xbtest::split_lines(r.out);
    ASSERT_EQ(lines.size(), 16u) << r.out;
    const std::string h = host();
    for (const bool bi : {false, true}) {
      const Row row = check_block(lines, bi ? 8 : 0, bi,
                                  "Pod: " + h + " device id: 1 " + (bi ? "and" : "to") + " Pod: " + h + " device id: 0");
      EXPECT_EQ(row.size, 1048576u);
      EXPECT_EQ(row.times, 3u);
      EXPECT_GT(row.elapsed, 0.0);
      // The printed bandwidth from the printed (rounded) elapsed time, within that rounding.
      const double from_elapsed = p2p_bandwidth_gbps(p2p_bytes_per_execution(1048576, bi), row.elapsed);
      EXPECT_NEAR(row.bandwidth, from_elapsed, from_elapsed * 0.0051 / row.elapsed + 1e-6);
    }
  }
}

// A script reading `ascend-dmi … 2>&1` by line number finds the tool's lines first: a note about
// the cpu standing in comes after them, and -q silences it.
TEST(AscendDmiCommand, NotesComeAfterTheToolsOutputAndQuietSilencesThem) {
  const std::string cmd = std::string(XB_ASCEND_DMI_LINK) + " --bw -t p2p --ds 0 --dd 1 -s 65536 --et 2";
  for (const bool quiet : {false, true}) {
    const auto r = xbtest::run_binary("/bin/sh", {"-c", cmd + (quiet ? " -q" : "") + " 2>&1"});
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    const auto lines = xbtest::split_lines(r.out);
    ASSERT_GE(lines.size(), 16u) << r.out;
    EXPECT_EQ(lines[0], "Unidirectional Peer to Peer Test") << r.out;
    EXPECT_EQ(lines[8], "Bidirectional Peer to Peer Test") << r.out;
    if (quiet) {
      EXPECT_EQ(lines.size(), 16u) << r.out;
    } else if (lines.size() > 16) {  // no accelerator here: the note, last
      EXPECT_EQ(lines.size(), 17u) << r.out;
      EXPECT_EQ(lines[16].rfind("ascend-dmi: no NPU or GPU found", 0), 0u) << r.out;
    }
  }
}

TEST(AscendDmiCommand, EveryRuleOfTheTableIsBadInput) {
  test::TempDir tmp;
  const auto open_dir = tmp.path() / "open";
  const auto good_dir = tmp.path() / "good";
  const auto link_dir = tmp.path() / "link";
  ASSERT_EQ(mkdir(open_dir.c_str(), 0755), 0);
  ASSERT_EQ(chmod(open_dir.c_str(), 0755), 0);
  ASSERT_EQ(mkdir(good_dir.c_str(), 0700), 0);
  std::filesystem::create_directory_symlink(good_dir, link_dir);
  // A private directory under one anybody may write into (not sticky), and under another user's.
  const auto world = tmp.path() / "world";
  const auto under_world = world / "spp";
  ASSERT_EQ(mkdir(world.c_str(), 0777), 0);
  ASSERT_EQ(chmod(world.c_str(), 0777), 0);
  ASSERT_EQ(mkdir(under_world.c_str(), 0700), 0);
  const auto theirs = tmp.path() / "theirs";
  const auto under_theirs = theirs / "spp";
  ASSERT_EQ(mkdir(theirs.c_str(), 0755), 0);
  ASSERT_EQ(mkdir(under_theirs.c_str(), 0700), 0);
  ASSERT_EQ(chown(theirs.c_str(), 65534, 65534), 0);  // nobody's (the suite runs as root)
  const std::string base = "--bw -t p2p ";
  const std::string pair = " --ip 10.9.0.2 --hip 10.9.0.1";
  const std::pair<std::string, std::string> cases[] = {
      {"-t p2p", "--bw: required"},
      {"--bw -t hccs", "-t hccs: expected h2d, d2h, d2d or p2p"},
      {"--bw -t h2d --ds 0 --dd 1", "--ds: only with -t p2p"},
      {"--bw -m card", "-m: only with -t p2p"},
      {"--bw -t d2d -s 0", "-s 0: expected a number of bytes from 1 to 4294967296"},
      {"--bw -t h2d --fmt yaml", "--fmt yaml: expected normal or json"},
      {base + "-d 1 --ds 0 --dd 1", "-d: not with --ds"},
      {base + "--dd 1 -d 0", "-d: not with --dd"},
      {base + "--ds 0", "--ds: must be given together with --dd"},
      {base + "-dd 0", "-dd: must be given together with --ds"},
      {base + "--sp 3", "--sp 3: expected 0 (source node), 1 (peer node) or 2 (MPI mode)"},
      {base + "--sp 0 --hip 10.9.0.1", "--sp 0: needs --ip"},
      {base + "-sp 1 -ip 10.9.0.2", "-sp 1: needs --ip"},
      {base + "--sp 2", "--sp 2: needs --ds and --dd"},
      {base + "--sp 2 --ds 0 --dd 1" + pair, "--ip: only with --sp 0 or 1"},
      {base + "--sp 2 --ds 0 --dd 1 --spp " + good_dir.string(), "--spp: only with --sp 0 or 1"},
      {base + "--sp 0 --ip 10.9.0.300 --hip 10.9.0.1", "--ip 10.9.0.300: not a valid IP address"},
      {base + "--sp 0 --ip 10.9.0.2 --hip nodeA", "--hip nodeA: not a valid IP address"},
      {base + "--sp 0 --ds 0 --dd 1" + pair, "--ds: not with --sp 0"},
      {base + "--ip 10.9.0.2", "--ip: only with --sp 0 or 1"},
      {base + "--hip 10.9.0.1", "--hip: only with --sp 0 or 1"},
      {base + "-d 1", "-d: names each node's device in a SuperPoD test"},
      {base + "-s 0", "-s 0: expected a number of bytes from 1 to 4294967296"},
      {base + "-s 4294967297", "-s 4294967297: expected a number of bytes from 1 to 4294967296"},
      {base + "-s 1K", "-s 1K: expected a number of bytes"},
      {base + "-s", "-s: a value must follow it"},
      {base + "-s -q", "-s: a value must follow it"},
      {base + "--et 0", "--et 0: expected a whole number from 1 to 100000000"},
      {base + "-et 100000001", "-et 100000001: expected a whole number from 1 to 100000000"},
      {base + "-m die", "-m die: expected device or card"},
      {base + "--sp 0" + pair + " --spp /tmp/*", "--spp /tmp/*: the path may not contain a wildcard (*)"},
      {base + "--sp 0" + pair + " --spp " + open_dir.string(), "--spp " + open_dir.string() + ": mode 0755 gives group or others access"},
      {base + "--sp 0" + pair + " --spp " + link_dir.string(), "--spp " + link_dir.string() + ": a symbolic link"},
      {base + "--sp 0" + pair + " --spp " + link_dir.string() + "/", "--spp " + link_dir.string() + "/: a symbolic link"},
      {base + "--sp 0" + pair + " --spp " + under_world.string(),
       "--spp " + under_world.string() + ": it lies under " + world.string() + ", mode 0777: others may replace"},
      {base + "--sp 0" + pair + " --spp " + under_theirs.string(),
       "--spp " + under_theirs.string() + ": it lies under " + theirs.string() + ", owned by uid 65534"},
      {base + "--sp 0" + pair + " --spp " + (tmp.path() / "none").string(), "--spp " + (tmp.path() / "none").string() + ": No such file or directory"},
      {base + "--ds 2 --dd 2", "--dd 2: the same device as --ds"},
      {base + "--size 8 --size 9", "--size: given twice"},
      {base + "-s 8 --size 9", "--size: given twice (also as -s)"},
      {base + "--bogus", "--bogus: not an option of ascend-dmi --bw"},
      {"-t p2p --bw=1", "--bw: takes no value"},
  };
  for (const auto& [args, expected] : cases) {
    SCOPED_TRACE(args);
    const auto r = dmi(xbtest::split_words(args));
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(xbtest::split_lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("xferbench ascend-dmi: " + expected, 0), 0u) << r.err;
  }
  // Through the link the line starts with the program's name, as ascend-dmi's own.
  const auto r = dmi({"--bw", "-t", "p2p", "-s", "0"}, true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("ascend-dmi: -s 0:", 0), 0u) << r.err;
  // Nothing was made in the shared directories the bad runs named.
  EXPECT_TRUE(std::filesystem::is_empty(good_dir));
  EXPECT_TRUE(std::filesystem::is_empty(open_dir));
  EXPECT_TRUE(std::filesystem::is_empty(under_world));
  EXPECT_TRUE(std::filesystem::is_empty(under_theirs));
}

TEST(AscendDmiCommand, HelpListsTheSeedsSpellings) {
  const auto r = dmi({"--bw", "-h"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  for (const char* s : {"-bw, --bw, --bandwidth", "-sp, --sp, --super-pod", "-ip, --ip, --peer-ip",
                        "-hip, --hip, --host-ip", "-spp, --spp, --super-pod-path", "-ds, --ds, --device-src",
                        "-dd, --dd, --device-dst", "-et, --et, --execute-times", "-m, --mode", "-d, --device",
                        "-s, --size"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  }
}

}  // namespace
}  // namespace xb
