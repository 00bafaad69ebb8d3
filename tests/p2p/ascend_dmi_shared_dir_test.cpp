// ascend-dmi's shared-directory mode (--sp 0/1 --ip --hip --spp DIR), for real: two processes on two
// loopback addresses meet through DIR/ascend_check (the seed's layout) and print the same rows;
// while they run the pair's directory holds procInfo (and procInfoBi), and when they are done DIR is
// empty again; a flag file left by a killed run is refused by name, and left alone; a node whose
// peer never writes procInfo gives the start-window error.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "system_state.hpp"
#include "two_nodes.hpp"
#include "support/shared_dir.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> node(const std::string& sp, const std::string& self, const std::string& peer,
                              const std::filesystem::path& dir) {
  return {"--bw", "-t", "p2p", "-sp", sp, "-ip", peer, "--spp", dir.string(), "--hip", self, "-s", "1048576", "--et",
          "3", "-q"};
}

TEST(AscendDmiSharedDir, TwoNodesMeetThroughTheDirectoryAndLeaveItEmpty) {
  test::SharedDir spp;
  const auto r = test::run_two(XB_ASCEND_DMI_LINK, node("1", "127.0.0.12", "127.0.0.11", spp.path),
                               node("0", "127.0.0.11", "127.0.0.12", spp.path));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  test::expect_ascend_dmi_pair(*r, "127.0.0.11", "127.0.0.12");
  EXPECT_TRUE(std::filesystem::is_empty(spp.path)) << "everything made in DIR was removed";
}

TEST(AscendDmiSharedDir, ALeftoverFlagFileIsRefusedByNameAndLeftAlone) {
  test::SharedDir spp;
  const auto check = spp.path / "ascend_check";
  ASSERT_EQ(mkdir(check.c_str(), 0700), 0);
  const auto flag = check / "127.0.0.13_0_device.flag";
  std::ofstream(flag) << "12345\n";
  const auto r = xbtest::run_binary(XB_ASCEND_DMI_LINK, node("0", "127.0.0.13", "127.0.0.14", spp.path));
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_EQ(r.err, "ascend-dmi: error: create " + flag.string() +
                       " failed: File exists (another run, or one that was killed: remove it)\n");
  EXPECT_TRUE(std::filesystem::exists(flag)) << "not ours: not removed";
  EXPECT_EQ(std::filesystem::directory_iterator(check)->path(), flag) << "nothing else left";
}

TEST(AscendDmiSharedDir, APeerThatNeverWritesProcInfoIsTheStartWindowError) {
  test::SharedDir spp;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = xbtest::run_binary(XB_ASCEND_DMI_LINK, node("1", "127.0.0.16", "127.0.0.15", spp.path));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 40s) << "no hang";
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_EQ(r.err, "ascend-dmi: error: no peer: " + (spp.path / "ascend_check/127.0.0.15_0_127.0.0.16_0_device/procInfo").string() +
                       " did not appear within 10 s: start the other node (--sp 0) within the start window\n");
  EXPECT_TRUE(std::filesystem::is_empty(spp.path));
}

// SIGHUP (a closed terminal) while the source node waits for its peer: its flag file and the pair's
// directory go, so the shared directory is as it was and the next run does not fail on a leftover.
TEST(AscendDmiSharedDir, SighupWhileWaitingForThePeerLeavesTheDirectoryEmpty) {
  test::SharedDir spp;
  xbtest::Process p = xbtest::start_binary(XB_ASCEND_DMI_LINK, node("0", "127.0.0.19", "127.0.0.20", spp.path));
  const auto pair = spp.path / "ascend_check/127.0.0.19_0_127.0.0.20_0_device";
  ASSERT_TRUE(xbtest::wait_until([&] { return std::filesystem::exists(pair / "procInfo"); }, 10s))
      << "the source node did not publish its address";
  p.signal_process(SIGHUP);
  const auto r = p.wait_for(10s);
  ASSERT_TRUE(r.has_value()) << "still running 10 s after SIGHUP";
  EXPECT_TRUE(!r->exited && r->term_signal == SIGHUP) << r->describe();
  EXPECT_TRUE(std::filesystem::is_empty(spp.path)) << "left in the shared directory";
}

// What the other node wrote is trusted only as this user's: a procInfo others may write, or a pair
// directory another user made, is refused before its address is used (a node would otherwise
// connect where a stranger says and present its token there).
TEST(AscendDmiSharedDir, AProcInfoOrPairDirectoryOthersControlIsNotTrusted) {
  for (const bool foreign_dir : {false, true}) {
    SCOPED_TRACE(foreign_dir ? "the pair directory is another user's" : "procInfo is writable by others");
    test::SharedDir spp;
    const auto check = spp.path / "ascend_check";
    ASSERT_EQ(mkdir(check.c_str(), 0700), 0);
    const auto pair = check / "127.0.0.17_0_127.0.0.18_0_device";
    ASSERT_EQ(mkdir(pair.c_str(), 0700), 0);
    const auto info = pair / "procInfo";
    std::ofstream(info) << "127.0.0.17:20005 1\n";
    if (foreign_dir) {
      ASSERT_EQ(chown(pair.c_str(), 65534, 65534), 0);  // nobody's (the suite runs as root)
    } else {
      ASSERT_EQ(chmod(info.c_str(), 0666), 0);
    }
    const auto r = xbtest::run_binary(XB_ASCEND_DMI_LINK, node("1", "127.0.0.18", "127.0.0.17", spp.path));
    EXPECT_EQ(r.exit_code, 1) << r.describe();
    if (foreign_dir) {
      EXPECT_NE(r.err.find(pair.string() + ": not this user's private directory (owner uid 65534"), std::string::npos)
          << r.err;
    } else {
      EXPECT_NE(r.err.find(info.string() + ": not trusted: a file of uid 0, mode 0666"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(pair / "procInfoBi")) << "answered a planted address";
  }
}

}  // namespace
}  // namespace xb
