// A run whose job fails midway keeps what it measured (issue 18 item 8), end to end: a kv dump
// sweeping two block sizes into a 4 MiB tmpfs. The first point (8 blocks of 4K) fits, the second
// (8 of 1M) runs out of space. The first point's case must be written, marked partial with the
// failure, and the exit code must be the failure's (1), with one error line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_binary.hpp"
#include "support/temp_dir.hpp"
#include "test_mount.hpp"

namespace {

TEST(PartialResults, AJobFailingMidSweepWritesTheCasesCompleteMarkedPartial) {
  xb::test::TmpfsMount small("size=4m,mode=0700");
  if (!small.available()) GTEST_SKIP() << small.why();
  const std::filesystem::path store = small.path() / "store";
  std::filesystem::create_directory(store);
  xb::test::TempDir dir;
  const std::string file = (dir.path() / "r.json").string();
  const xbtest::RunResult r =
      xbtest::run_binary(xbtest::kBinary, {"kv", "dump", "--store", store.string(), "-n", "8", "--block", "4K,1M",
                                           "--buffered", "--output", file},
                         xbtest::default_options());
  ASSERT_TRUE(r.exited && r.exit_code == 1) << r.describe();
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the run failed: delivering the 1 case complete, marked partial"), std::string::npos) << r.err;
  std::ifstream in(file);
  ASSERT_TRUE(in) << "no results file: " << r.describe();
  const nlohmann::json doc = nlohmann::json::parse(in);
  const std::string reason = doc.at("partial").at("reason");
  EXPECT_EQ(reason.rfind("failed: ", 0), 0u) << reason;
  EXPECT_NE(reason.find("No space left on device"), std::string::npos) << reason;
  ASSERT_EQ(doc.at("cases").size(), 1u);
  bool four_k = false;
  for (const auto& l : doc.at("cases")[0].at("labels")) four_k |= l.at("value") == "4K";
  EXPECT_TRUE(four_k) << doc.at("cases")[0].dump();
}

}  // namespace
