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
  // Its devices' peer links, as a module reports them through DeviceInfo.
  EXPECT_TRUE(has_line_starting(r.out, "    peer link 16 × NVLink 4.0 at 26.562 GB/s each way to the switch fabric")) << r.out;
  EXPECT_TRUE(has_line_starting(r.out, "    peer links: testgood: 16 active, 2 not active")) << r.out;

  bool badversion = false, nosymbol = false;
  for (const auto& line : split_lines(r.out)) {
    if (line.rfind("module " + dir + "/libxferbench-backend-testbadversion.so: refused: ", 0) == 0) {
      badversion = line.find("interface version") != std::string::npos;
    }
    if (line.rfind("module " + dir + "/libxferbench-backend-testnosymbol.so: refused: ", 0) == 0) {
      nosymbol = line.find("xferbench_module symbol") != std::string::npos;
    }
  }
  EXPECT_TRUE(badversion) << "no line saying testbadversion was refused for its interface version:\n" << r.out;
  EXPECT_TRUE(nosymbol) << "no line saying testnosymbol was refused for the missing symbol:\n" << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// A module's peer links carry through to the JSON of `devices` and to p2p's judgement: the pair is
// set against the switch fabric (16 links each way), not PCIe, and the links down warn.
TEST(BinaryWithModules, PeerLinksReachDevicesJsonAndJudgeP2p) {
  auto r = xbtest::run_binary(kBinary, {"devices", "--json"}, with_modules(kModuleDir.string()));
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  nlohmann::json doc;
  ASSERT_NO_THROW(doc = nlohmann::json::parse(r.out)) << r.out;
  bool seen = false;
  for (const auto& b : doc.at("backends")) {
    if (b.at("name") != "testgood") continue;
    const auto& d = b.at("devices").at(0);
    ASSERT_EQ(d.at("peer_links").size(), 1u) << d.dump();
    EXPECT_EQ(d.at("peer_links").at(0).at("links"), 16);
    EXPECT_EQ(d.at("peer_links").at(0).at("through_switch"), true);
    EXPECT_DOUBLE_EQ(d.at("peer_links").at(0).at("bytes_per_second_each").get<double>(), 26.5625e9);
    EXPECT_EQ(d.at("peer_links_down"), 2);
    seen = true;
  }
  EXPECT_TRUE(seen) << r.out;

  r = xbtest::run_binary(kBinary, {"p2p", "--backend", "testgood", "-s", "4M", "--times", "3", "--quiet", "--format", "json",
                                   "--judge"},
                         with_modules(kModuleDir.string()));
  ASSERT_TRUE(r.exited) << r.describe();
  ASSERT_NO_THROW(doc = nlohmann::json::parse(r.out)) << r.out;
  const auto& v = doc.at("cases").at(0).at("verdict");
  EXPECT_EQ(v.at("unit"), "GB/s") << v.dump();
  EXPECT_DOUBLE_EQ(v.at("ceiling").get<double>(), 16 * 26.5625) << v.dump();
  EXPECT_NE(v.at("ceiling_derivation").get<std::string>().find("through the switch fabric"), std::string::npos) << v.dump();
  EXPECT_EQ(v.at("warnings"), nlohmann::json::array({"device 0: 2 of its 18 peer links are not active",
                                                     "device 1: 2 of its 18 peer links are not active"}))
      << v.dump();
  // A host copy is far below 425 GB/s: the built-in share fails it, and the exit status says so.
  EXPECT_EQ(v.at("verdict"), "FAIL") << v.dump();
  EXPECT_EQ(r.exit_code, 1) << r.describe();
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
