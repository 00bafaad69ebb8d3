// Ctrl-C during `xferbench survey`: the storage steps work in a temporary `.xferbench-survey-*`
// directory under --dir; interrupted while it exists, the run dies of SIGINT and leaves nothing
// in --dir — neither the io job's files nor the directory itself (core/cleanup's directory kind);
// the steps complete by then are written to --json, marked partial.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/temp_dir.hpp"
#include "run_binary.hpp"
#include "system_state.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

bool scratch_exists(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().filename().string().rfind(".xferbench-survey-", 0) == 0) return true;
  }
  return false;
}

TEST(SurveyInterrupt, CtrlCLeavesNothingInTheStorageDirectory) {
  test::TempDir cwd, dir;
  const auto json = cwd.path() / "s.json";
  // --full: storage steps long enough to be interrupted inside.
  xbtest::Process p = xbtest::start_binary(XB_BINARY, {"survey", "--full", "--dir", dir.path().string(), "--json",
                                                       json.string()});
  ASSERT_TRUE(xbtest::wait_until([&] { return scratch_exists(dir.path()); }, 60s))
      << "no .xferbench-survey-* directory appeared in " << dir.path();
  std::this_thread::sleep_for(300ms);  // into the io step: its files exist too
  p.signal_group(SIGINT);
  const auto r = p.wait_for(30s);
  ASSERT_TRUE(r.has_value()) << "the survey did not end after SIGINT";
  EXPECT_FALSE(r->exited) << r->describe();
  EXPECT_EQ(r->term_signal, SIGINT) << r->describe();
  EXPECT_TRUE(dir.entries().empty()) << "left in --dir: " << (dir.entries().empty() ? "" : dir.entries().front());
  // The steps complete before the storage step (the copies) are kept, marked partial (issue 18
  // item 8); the file is whole (written atomically), and nothing else is beside it.
  std::ifstream in(json);
  ASSERT_TRUE(in) << "no results file from an interrupted survey with steps complete";
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc.at("partial").at("reason"), "interrupted by SIGINT");
  EXPECT_FALSE(doc.at("cases").empty());
  EXPECT_EQ(cwd.entries(), (std::vector<std::string>{"s.json"}));
}

}  // namespace
}  // namespace xb
