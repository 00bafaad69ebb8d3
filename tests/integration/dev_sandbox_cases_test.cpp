// The dev-sandbox dialect end to end: all eight cases of the seed's flags, run by the real binary
// (as `xferbench dev-sandbox` and through the `dev-sandbox` link name), output checked line by line
// and column by column against the seed's format; UCM's `copy -t CASE` sub-command and its
// `ucm-toolkit run dev-sandbox …` front end.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "run_binary.hpp"
#include "system_state.hpp"

namespace {

using xbtest::split_lines;

using xbtest::kBinary;
const std::string kLink = (std::filesystem::path(XB_BINARY).parent_path() / "dev-sandbox").string();

// The seed's header line, exactly.
const std::string kHeader =
    "  From              To                Method    Size(KB)  Count   Submit(us)-(Min/Max/Avg/P50/P90)        "
    "Copy(us)-(Min/Max/Avg/P50/P90)              BW(GB/s)";
// Where each column starts, in the header and in the row.
constexpr std::array<std::size_t, 8> kOffsets{2, 20, 38, 48, 58, 66, 106, 150};
const std::array<std::string, 8> kColumnNames{"From", "To", "Method", "Size(KB)", "Count",
                                              "Submit(us)-(Min/Max/Avg/P50/P90)",
                                              "Copy(us)-(Min/Max/Avg/P50/P90)", "BW(GB/s)"};

enum class Invocation { subcommand, link };

struct Case {
  std::string model;
  bool iodirect;
  bool sdma;
  Invocation how;
};

// How gtest shows a case (in failures and test lists).
void PrintTo(const Case& c, std::ostream* os) {
  *os << (c.how == Invocation::link ? "dev-sandbox" : "xferbench dev-sandbox") << " --model-type " << c.model
      << " --iodirect " << (c.iodirect ? "true" : "false") << " --sdma " << (c.sdma ? "true" : "false");
}

std::string expected_name(const Case& c) {
  const std::string from = c.model == "mla" ? "one_share_host" : c.iodirect ? "all_odirect_host" : "all_host";
  return from + "_to_all_device_" + (c.sdma ? "ffts_direct_h2d" : "ce_multi_stream");
}

std::string expected_title(const Case& c) {
  const std::string from = c.model == "mla" ? "one shared host" : c.iodirect ? "all O_DIRECT host" : "all host";
  return "memcpy from " + from + " to all device with " +
         (c.sdma ? "ffts direct h2d sdma" : "ce using multi stream") + " and fork submit";
}

std::string expected_from(const Case& c) {
  return c.model == "mla" ? "cpu::shm::0" : c.iodirect ? "cpu::odirect::all" : "cpu::host::all";
}

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// The five "min / max / avg / p50 / p90" integers of a stats column; empty if malformed.
std::vector<long> five_stats(const std::string& field) {
  static const std::regex re(R"(^(\d+) / (\d+) / (\d+) / (\d+) / (\d+)$)");
  std::smatch m;
  if (!std::regex_match(field, m, re)) return {};
  std::vector<long> v;
  for (int i = 1; i <= 5; ++i) v.push_back(std::stol(m[i].str()));
  return v;
}

void check_stats(const std::string& column, const std::string& field) {
  const auto v = five_stats(field);
  ASSERT_EQ(v.size(), 5u) << column << " is not five slash-separated integers: '" << field << "'";
  const long min = v[0], max = v[1], avg = v[2], p50 = v[3], p90 = v[4];
  // Orders that hold for any samples (and survive rounding to whole microseconds).
  EXPECT_LE(min, max) << column << ": " << field;
  EXPECT_LE(min, avg) << column << ": " << field;
  EXPECT_LE(avg, max) << column << ": " << field;
  EXPECT_LE(min, p50) << column << ": " << field;
  EXPECT_LE(p50, p90) << column << ": " << field;
  EXPECT_LE(p90, max) << column << ": " << field;
}

std::string case_label(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  return c.model + "_iodirect_" + (c.iodirect ? "true" : "false") + "_sdma_" + (c.sdma ? "true" : "false") +
         (c.how == Invocation::link ? "_via_link" : "_via_subcommand");
}

class DevSandboxCase : public ::testing::TestWithParam<Case> {};

TEST_P(DevSandboxCase, PrintsTheSeedsThreeLines) {
  const Case& c = GetParam();
  std::vector<std::string> args;
  if (c.how == Invocation::subcommand) args.push_back("dev-sandbox");
  args.insert(args.end(), {"--model-type", c.model});
  args.insert(args.end(), {"--iodirect", c.iodirect ? "true" : "false", "--sdma", c.sdma ? "true" : "false", "-s",
                           "16K", "-n", "8", "-i", "4", "-d", "2", "--verify"});
  if (c.sdma) args.insert(args.end(), {"-f", "2"});

  const xbtest::LeftoverWatch watch;
  const auto r = xbtest::run_binary(c.how == Invocation::link ? kLink : kBinary, args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();

  // stderr: exactly one line, the note that no accelerator was found.
  const auto err = split_lines(r.err);
  ASSERT_EQ(err.size(), 1u) << "stderr: [" << r.err << "]";
  EXPECT_NE(err[0].find("running on the cpu backend"), std::string::npos) << err[0];
  EXPECT_EQ(r.err.back(), '\n');

  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << "stdout: [" << r.out << "]";
  EXPECT_EQ(r.out.back(), '\n');

  // 1: the title.
  EXPECT_EQ(lines[0], "[[ " + expected_name(c) + " ]] " + expected_title(c));

  // 2: the header, exactly, and its columns where the row's must be.
  const std::string& header = lines[1];
  EXPECT_EQ(header, kHeader);
  for (std::size_t i = 0; i < kOffsets.size(); ++i) {
    EXPECT_EQ(header.find(kColumnNames[i]), kOffsets[i]) << "header column " << kColumnNames[i];
  }

  // 3: the row, each field starting at its column's offset.
  const std::string& row = lines[2];
  ASSERT_GT(row.size(), kOffsets.back()) << "row too short: '" << row << "'";
  EXPECT_EQ(row.substr(0, 2), "  ") << row;
  std::array<std::string, 8> field;
  // A method name longer than its column (ffts-direct-h2d) runs on into the next, as printf's
  // %-10s does, and moves every later column by as much.
  const std::string method = c.sdma ? "ffts-direct-h2d" : "CE-MS-FORK";
  const std::size_t shift = method.size() > 10 ? method.size() - 10 : 0;
  const auto offset = [&](std::size_t i) { return kOffsets[i] + (i >= 3 ? shift : 0); };
  for (std::size_t i = 0; i < kOffsets.size(); ++i) {
    const std::size_t len = i + 1 < kOffsets.size() ? offset(i + 1) - offset(i) : std::string::npos;
    const std::string raw = row.substr(offset(i), len);
    ASSERT_FALSE(raw.empty()) << kColumnNames[i];
    EXPECT_NE(raw.front(), ' ') << "column " << kColumnNames[i] << " does not start at offset " << offset(i)
                                << " in '" << row << "'";
    field[i] = rtrim(raw);
    EXPECT_EQ(field[i].find("  "), std::string::npos) << kColumnNames[i] << ": '" << field[i] << "'";
  }
  EXPECT_EQ(field[0], expected_from(c));
  EXPECT_EQ(field[1], "cpu::device::all");
  EXPECT_EQ(field[2], method);
  EXPECT_EQ(field[3], "16");  // 16K blocks, in KB
  EXPECT_EQ(field[4], "16");  // 2 cards x 8 blocks
  check_stats(kColumnNames[5], field[5]);
  check_stats(kColumnNames[6], field[6]);
  static const std::regex bw_re(R"(^\d+\.\d{3}$)");
  EXPECT_TRUE(std::regex_match(field[7], bw_re)) << "BW '" << field[7] << "'";
  EXPECT_GT(std::stod(field[7]), 0.0) << field[7];

  const auto left = watch.leftovers();
  EXPECT_TRUE(left.empty()) << "left behind: " << xbtest::join(left);
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (Invocation how : {Invocation::subcommand, Invocation::link}) {
    for (const char* model : {"gqa", "mla"}) {
      for (bool iodirect : {false, true}) {
        for (bool sdma : {false, true}) cases.push_back({model, iodirect, sdma, how});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllEight, DevSandboxCase, ::testing::ValuesIn(all_cases()), case_label);

// The link name is a real link next to the binary, pointing at it.
TEST(DevSandboxLink, IsALinkToTheBinary) {
  std::error_code ec;
  ASSERT_TRUE(std::filesystem::is_symlink(kLink, ec)) << kLink;
  EXPECT_TRUE(std::filesystem::equivalent(kLink, kBinary, ec)) << kLink << " -> " << kBinary;
}

// The link's --help is dev-sandbox's own, on stdout, exit 0.
TEST(DevSandboxLink, HelpIsTheDialectsHelp) {
  const auto r = xbtest::run_binary(kLink, {"--help"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("--model-type"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--sdma"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--iodirect"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// A block size that is not a whole number of KB shows three decimals; Count is cards x blocks.
TEST(DevSandboxSizes, FractionalKilobytesAndOneCard) {
  const auto r = xbtest::run_binary(kBinary, {"dev-sandbox", "--model-type", "gqa", "--iodirect", "false", "--sdma",
                                              "false", "-s", "1536", "-n", "3", "-i", "2", "-d", "1", "--verify"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  ASSERT_GT(lines[2].size(), kOffsets.back()) << lines[2];
  EXPECT_EQ(rtrim(lines[2].substr(kOffsets[3], kOffsets[4] - kOffsets[3])), "1.500") << lines[2];
  EXPECT_EQ(rtrim(lines[2].substr(kOffsets[4], kOffsets[5] - kOffsets[4])), "3") << lines[2];
}

// UCM's copy module: every case by its name, several in one run, each its own three lines, through
// the `ucm-toolkit run dev-sandbox` form that UCM's scripts use.
TEST(DevSandboxCopy, NamedCasesRunInOrderThroughTheToolkitLink) {
  const std::string toolkit = (std::filesystem::path(XB_BINARY).parent_path() / "ucm-toolkit").string();
  const std::vector<std::string> names{"all_host_to_all_device_ce_multi_stream",
                                       "all_odirect_host_to_all_device_ce_multi_stream",
                                       "one_share_host_to_all_device_ce_multi_stream",
                                       "all_host_to_all_device_ffts_direct_h2d",
                                       "all_odirect_host_to_all_device_ffts_direct_h2d",
                                       "one_share_host_to_all_device_ffts_direct_h2d"};
  std::vector<std::string> args{"run", "dev-sandbox", "copy"};
  for (const auto& n : names) {
    args.push_back("-t");
    args.push_back(n);
  }
  for (const char* a : {"-s", "16K", "-n", "4", "-i", "2", "-d", "2", "-frags", "2"}) args.emplace_back(a);
  xbtest::LeftoverWatch watch;
  const auto r = xbtest::run_binary(toolkit, args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3 * names.size()) << r.out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(lines[3 * i].rfind("[[ " + names[i] + " ]] ", 0), 0u) << lines[3 * i];
    EXPECT_EQ(lines[3 * i + 1], kHeader);
    const bool sdma = names[i].ends_with("ffts_direct_h2d");
    EXPECT_NE(lines[3 * i + 2].find(sdma ? "ffts-direct-h2d16 " : "CE-MS-FORK16 "), std::string::npos)
        << lines[3 * i + 2];
  }
  EXPECT_TRUE(watch.leftovers().empty()) << xbtest::join(watch.leftovers());
}

TEST(DevSandboxCopy, AnUnknownCaseListsTheCasesAndTheToolkitSaysWhatItSpeaks) {
  auto r = xbtest::run_binary(kBinary, {"dev-sandbox", "copy", "-t", "all_host_to_all_device_sdma"});
  ASSERT_TRUE(r.exited && r.exit_code == 2) << r.describe();
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("-t all_host_to_all_device_sdma: no such case; the cases are "
                       "all_host_to_all_device_ce_multi_stream, "),
            std::string::npos)
      << r.err;
  r = xbtest::run_binary(kBinary, {"dev-sandbox", "copy", "-s", "16K"});
  ASSERT_TRUE(r.exited && r.exit_code == 2) << r.describe();
  EXPECT_NE(r.err.find("-t: required"), std::string::npos) << r.err;
  const std::string toolkit = (std::filesystem::path(XB_BINARY).parent_path() / "ucm-toolkit").string();
  r = xbtest::run_binary(toolkit, {"build", "dev-sandbox"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.out, "dev-sandbox: built into xferbench; nothing to build\n");
  r = xbtest::run_binary(toolkit, {"run", "kv-bench", "-h"});
  ASSERT_TRUE(r.exited && r.exit_code == 2) << r.describe();
  EXPECT_EQ(r.err, "ucm-toolkit: run: expected 'run dev-sandbox ARGS' or 'build dev-sandbox' (the toolkit module "
                   "xferbench speaks is dev-sandbox)\n");
}

// UCM's trans module: the matrix of directions x host types x device types x methods that this
// backend has (the cpu's only method is memcpy, as UCM's simulation backend), every case the copy
// table's three lines in the matrix's order, through `ucm-toolkit run dev-sandbox trans`.
TEST(DevSandboxTrans, EveryMatchingCaseInMatrixOrderThroughTheToolkitLink) {
  const std::string toolkit = (std::filesystem::path(XB_BINARY).parent_path() / "ucm-toolkit").string();
  xbtest::LeftoverWatch watch;
  const auto r = xbtest::run_binary(
      toolkit, {"run", "dev-sandbox", "trans", "-s", "4096", "-n", "4", "-d", "2", "-i", "3", "--verify"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const auto lines = split_lines(r.out);
  struct Row {
    const char *name, *from, *to;
  };
  const Row rows[] = {
      {"h2d_normal_host_normal_device_memcpy", "cpu::normal", "cpu::device::all"},
      {"h2d_anonymous_host_normal_device_memcpy", "cpu::anonymous", "cpu::device::all"},
      {"h2d_registered_host_normal_device_memcpy", "cpu::registered", "cpu::device::all"},
      {"d2h_normal_host_normal_device_memcpy", "cpu::device::all", "cpu::normal"},
      {"d2h_anonymous_host_normal_device_memcpy", "cpu::device::all", "cpu::anonymous"},
      {"d2h_registered_host_normal_device_memcpy", "cpu::device::all", "cpu::registered"},
  };
  ASSERT_EQ(lines.size(), 3 * std::size(rows)) << r.out;
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    SCOPED_TRACE(rows[i].name);
    EXPECT_EQ(lines[3 * i].rfind(std::string("[[ ") + rows[i].name + " ]] ", 0), 0u) << lines[3 * i];
    EXPECT_EQ(lines[3 * i + 1], kHeader);
    const std::string& row = lines[3 * i + 2];
    ASSERT_GT(row.size(), kOffsets.back()) << row;
    const auto column = [&](std::size_t k) {
      return rtrim(row.substr(kOffsets[k], k + 1 < kOffsets.size() ? kOffsets[k + 1] - kOffsets[k] : std::string::npos));
    };
    EXPECT_EQ(column(0), rows[i].from);
    EXPECT_EQ(column(1), rows[i].to);
    EXPECT_EQ(column(2), "memcpy");
    EXPECT_EQ(column(3), "4");   // 4096 bytes in KB
    EXPECT_EQ(column(4), "8");   // 4 transfers on each of 2 devices
    check_stats(kColumnNames[5], column(5));
    check_stats(kColumnNames[6], column(6));
    EXPECT_GT(std::stod(column(7)), 0.0) << row;
  }
  EXPECT_TRUE(watch.leftovers().empty()) << xbtest::join(watch.leftovers());
}

// Filters narrow the matrix; a method this backend lacks is skipped and named after the table, and
// when nothing is left the run is exit 3 listing the cases this backend has; a value no backend has
// is bad input (exit 2), one line naming the flag.
TEST(DevSandboxTrans, FiltersNarrowAbsentMethodsAreNamedUnknownValuesRefused) {
  auto r = xbtest::run_binary(kLink, {"trans", "-t", "D2H", "-H", "registered", "-M", "memcpy", "-M", "sm", "-s", "8K",
                                      "-n", "2", "-d", "1", "-i", "2"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("[[ d2h_registered_host_normal_device_memcpy ]] ", 0), 0u) << lines[0];
  EXPECT_NE(r.err.find("trans: -M sm needs another backend than cpu"), std::string::npos) << r.err;

  r = xbtest::run_binary(kLink, {"trans", "-M", "ce", "-M", "batch_ce", "-s", "8K", "-n", "2", "-d", "1", "-i", "2"});
  ASSERT_TRUE(r.exited && r.exit_code == 3) << r.describe();
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("no case matches on the cpu backend (ce, batch_ce needs another backend); its cases are "
                       "h2d_normal_host_normal_device_memcpy, "),
            std::string::npos)
      << r.err;

  for (const std::vector<std::string>& bad : {std::vector<std::string>{"trans", "-H", "pinned"},
                                              std::vector<std::string>{"trans", "-M", "dma"},
                                              std::vector<std::string>{"trans", "-t", "D2D"},
                                              std::vector<std::string>{"trans", "-s", "0"}}) {
    r = xbtest::run_binary(kLink, bad);
    ASSERT_TRUE(r.exited && r.exit_code == 2) << r.describe();
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(bad[1]), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  r = xbtest::run_binary(kLink, {"trans", "-h"});
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_NE(r.out.find("-M"), std::string::npos) << r.out;
}

}  // namespace
