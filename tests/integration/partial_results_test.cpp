// Ctrl-C keeps what was measured (issue 18 item 8), end to end: a copy sweep on a terminal gets
// Ctrl-C (SIGINT to its process group) the moment its second point begins. The first point's case
// must be printed and written, marked partial; the process must die of the signal (the shell's
// 130); nothing but the results file may be left.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "support/pty_run.hpp"
#include "support/temp_dir.hpp"
#include "system_state.hpp"

namespace {

TEST(PartialResults, CtrlCMidSweepPrintsAndWritesTheCasesCompleteMarkedPartial) {
  xb::test::TempDir dir;
  const std::string file = (dir.path() / "r.json").string();
  // The second point (64 MiB x 2000 iterations) runs far longer than the time it takes to see it begin.
  const xb::test::PtyRun run = xb::test::run_on_pty(
      XB_BINARY,
      {"copy", "--backend", "cpu", "-s", "4K,64M", "-n", "1", "-i", "2000", "-d", "1", "--format", "table", "--output",
       file},
      std::chrono::minutes(2), {}, xb::test::PtyAction{"[2/2", [](pid_t pid) { kill(-pid, SIGINT); }});
  ASSERT_TRUE(WIFSIGNALED(run.status) && WTERMSIG(run.status) == SIGINT) << "status " << run.status << ":\n"
                                                                         << run.output;
  EXPECT_NE(run.output.find("interrupted by SIGINT: delivering the 1 case complete, marked partial"), std::string::npos)
      << run.output;
  // The table on the terminal: the finished point's row, then the mark.
  EXPECT_NE(run.output.find("[[ copy ]]"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("PARTIAL: the run ended early (interrupted by SIGINT): 1 case complete"), std::string::npos)
      << run.output;
  std::ifstream in(file);
  ASSERT_TRUE(in) << "no results file:\n" << run.output;
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc.at("partial").at("reason"), "interrupted by SIGINT");
  ASSERT_EQ(doc.at("cases").size(), 1u);
  bool four_k = false;
  for (const auto& l : doc.at("cases")[0].at("labels")) four_k |= l.at("key") == "size" && l.at("value") == "4K";
  EXPECT_TRUE(four_k) << doc.at("cases")[0].dump();
  // Nothing else: no temporary of the results file, no shared memory or file of the run.
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"r.json"}));
  const auto left = xbtest::leftovers_of(std::set<pid_t>{run.pid});
  EXPECT_TRUE(left.empty()) << "left behind: " << xbtest::join(left);
}

}  // namespace
