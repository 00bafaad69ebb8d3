// The real binary with the test modules on XFERBENCH_MODULE_PATH: `devices` reports each module's
// fate, and the jobs run on the module's backend when it is the preferred one.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_binary.hpp"

namespace {

namespace fs = std::filesystem;
using xbtest::split_lines;

const std::string kBinary = XB_BINARY;
const fs::path kModuleDir = XB_TEST_MODULE_DIR;

xbtest::RunOptions with_modules(const std::string& path_value) {
  xbtest::RunOptions o;
  o.env.push_back("XFERBENCH_MODULE_PATH=" + path_value);
  return o;
}

bool has_line_starting(const std::string& text, const std::string& prefix) {
  for (const auto& line : split_lines(text)) {
    if (line.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

TEST(BinaryWithModules, DevicesReportsLoadedAndRefusedModules) {
  const auto r = xbtest::run_binary(kBinary, {"devices"}, with_modules(kModuleDir.string()));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const std::string dir = kModuleDir.string();
  EXPECT_TRUE(has_line_starting(r.out, "backend cpu (built in): ")) << r.out;
  EXPECT_TRUE(has_line_starting(r.out, "backend testgood (" + dir + "/libxferbench-backend-testgood.so): ")) << r.out;
  EXPECT_TRUE(has_line_starting(r.out, "  testgood::device::0  ")) << r.out;

  bool badversion = false, nosymbol = false;
  for (const auto& line : split_lines(r.out)) {
    if (line.rfind("module " + dir + "/libxferbench-backend-testbadversion.so: refused: ", 0) == 0) {
      badversion = line.find("interface version") != std::string::npos;
    }
    if (line.rfind("module " + dir + "/libxferbench-backend-testnosymbol.so: refused: ", 0) == 0) {
      nosymbol = line.find("xferbench_backend_module") != std::string::npos;
    }
  }
  EXPECT_TRUE(badversion) << "no line saying testbadversion was refused for its interface version:\n" << r.out;
  EXPECT_TRUE(nosymbol) << "no line saying testnosymbol was refused for the missing symbol:\n" << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// The variable is a colon-separated list; empty and missing entries are skipped.
TEST(BinaryWithModules, ModulePathIsAColonSeparatedList) {
  const auto r = xbtest::run_binary(kBinary, {"devices"},
                                    with_modules("/nonexistent/a::" + kModuleDir.string() + ":/nonexistent/b"));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(has_line_starting(r.out, "backend testgood (")) << r.out;
}

TEST(BinaryWithModules, WithoutTheVariableOnlyTheCpuBackend) {
  const auto r = xbtest::run_binary(kBinary, {"devices"});  // default options unset it
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(has_line_starting(r.out, "backend cpu (built in): ")) << r.out;
  EXPECT_EQ(r.out.find("testgood"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("refused"), std::string::npos) << r.out;
}

TEST(BinaryWithModules, CopyRunsOnThePreferredModuleBackend) {
  const auto r = xbtest::run_binary(
      kBinary, {"copy", "-s", "16K", "-n", "8", "-i", "4", "-d", "2", "--verify", "--format", "json"},
      with_modules(kModuleDir.string()));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(r.err.empty()) << "an accelerator-like backend was found, so no cpu note: " << r.err;
  nlohmann::json doc;
  ASSERT_NO_THROW(doc = nlohmann::json::parse(r.out)) << r.out;
  const auto& c = doc.at("cases").at(0);
  EXPECT_EQ(c.at("config").at("backend"), "testgood");
  EXPECT_EQ(c.at("config").at("verify"), true);
  EXPECT_EQ(c.at("ranks").size(), 2u);
}

TEST(BinaryWithModules, CopyCanStillChooseCpu) {
  const auto r = xbtest::run_binary(
      kBinary, {"copy", "--backend", "cpu", "-s", "16K", "-n", "8", "-i", "4", "-d", "2", "--verify", "--format", "json"},
      with_modules(kModuleDir.string()));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(nlohmann::json::parse(r.out).at("cases").at(0).at("config").at("backend"), "cpu");
}

TEST(BinaryWithModules, UnknownBackendListsTheModulesBackend) {
  const auto r = xbtest::run_binary(kBinary, {"copy", "--backend", "nope"}, with_modules(kModuleDir.string()));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2);
  const auto err = split_lines(r.err);
  ASSERT_EQ(err.size(), 1u) << r.err;
  EXPECT_NE(err[0].find("--backend nope"), std::string::npos) << err[0];
  EXPECT_NE(err[0].find("available: cpu, testgood"), std::string::npos) << err[0];
}

TEST(BinaryWithModules, DevSandboxRunsOnTheModuleBackend) {
  const auto r = xbtest::run_binary(kBinary,
                                    {"dev-sandbox", "--model-type", "gqa", "--iodirect", "false", "--sdma", "true",
                                     "-s", "16K", "-n", "8", "-i", "4", "-d", "2", "-f", "2", "--verify"},
                                    with_modules(kModuleDir.string()));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_TRUE(r.err.empty()) << "no 'running on the cpu backend' note with a module backend: " << r.err;
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("[[ all_host_to_all_device_ffts_direct_h2d ]] ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[2].rfind("  testgood::host::all", 0), 0u) << lines[2];
  EXPECT_NE(lines[2].find("testgood::device::all"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("ffts-direct-h2d"), std::string::npos) << lines[2];
}

}  // namespace
