// Progress on a real terminal: the survey run under a pseudo-terminal (forkpty) shows its steps on
// stderr ("survey: [i/n] …") and erases them; with --quiet it shows none.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <string>
#include <vector>

#include "support/pty_run.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using test::PtyRun;

PtyRun run_on_pty(const std::vector<std::string>& args) { return test::run_on_pty(XB_BINARY, args); }

TEST(SurveyPty, ProgressOnATerminalAndNotWithQuiet) {
  test::TempDir dir;
  const auto json = (dir.path() / "p.json").string();
  const PtyRun shown = run_on_pty({"survey", "--quick", "--dir", dir.path().string(), "--json", json});
  ASSERT_TRUE(WIFEXITED(shown.status) && WEXITSTATUS(shown.status) == 0) << shown.output;
  EXPECT_NE(shown.output.find("\r\033[Ksurvey: [1/"), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("storage randread 4K for 1 s…"), std::string::npos) << shown.output;
  // Erased before the table: the first table line starts clean after the last erase.
  const auto table = shown.output.find("path");
  ASSERT_NE(table, std::string::npos);
  const auto last_erase = shown.output.rfind("\r\033[K", table);
  ASSERT_NE(last_erase, std::string::npos);
  EXPECT_EQ(shown.output.substr(last_erase + 4, table - last_erase - 4).find("survey: ["), std::string::npos)
      << shown.output;

  const PtyRun quiet = run_on_pty({"survey", "--quick", "-q", "--dir", dir.path().string(), "--json", json});
  ASSERT_TRUE(WIFEXITED(quiet.status) && WEXITSTATUS(quiet.status) == 0) << quiet.output;
  EXPECT_EQ(quiet.output.find("survey: ["), std::string::npos) << quiet.output;
  EXPECT_NE(quiet.output.find("path"), std::string::npos);
}

// `xferbench io` shows its line once a run has lasted two seconds (a -T 3 run does), and erases it
// before its table; a --format json run shows none.
TEST(SurveyPty, IoShowsProgressPastTwoSeconds) {
  test::TempDir dir;
  const PtyRun write = run_on_pty({"io", "-D", dir.path().string(), "--rw", "write", "-s", "16M", "-q"});
  ASSERT_TRUE(WIFEXITED(write.status) && WEXITSTATUS(write.status) == 0) << write.output;
  EXPECT_EQ(write.output.find("io: "), std::string::npos) << write.output;  // -q (and short)
  const std::vector<std::string> read{"io", "-D", dir.path().string(), "--rw", "randread", "-s", "16M", "-i", "4K", "-T", "3"};
  const PtyRun shown = run_on_pty(read);
  ASSERT_TRUE(WIFEXITED(shown.status) && WEXITSTATUS(shown.status) == 0) << shown.output;
  EXPECT_NE(shown.output.find("\r\033[Kio: randread 4K with psync, 1 thread(s)… 2 s"), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("\r\033[K[[ io ]] randread"), std::string::npos) << shown.output;
  auto json_args = read;
  json_args.insert(json_args.end(), {"--format", "json"});
  const PtyRun json = run_on_pty(json_args);
  ASSERT_TRUE(WIFEXITED(json.status) && WEXITSTATUS(json.status) == 0) << json.output;
  EXPECT_EQ(json.output.find("io: randread"), std::string::npos) << json.output;
}

}  // namespace
}  // namespace xb
