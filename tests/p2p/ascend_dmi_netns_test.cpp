// ascend-dmi's two-node modes between two network namespaces (a veth pair: two "hosts" on this
// machine, each seeing only its own address), for real: peer IP (--ip/--hip) and the shared
// directory (--spp; namespaces share the file system, as two nodes share a mount). Both nodes print
// the same rows with their own namespace's address first. Skipped with the reason where namespaces
// cannot be made (not root).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "support/netns.hpp"
#include "support/shared_dir.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> node(const std::string& sp, const std::string& self, const std::string& peer,
                              const std::string& spp) {
  std::vector<std::string> a = {XB_ASCEND_DMI_LINK, "--bw", "-t", "p2p", "--sp", sp, "--ip", peer, "--hip", self,
                                "-s", "1048576", "--et", "3", "-q"};
  if (!spp.empty()) {
    a.push_back("--spp");
    a.push_back(spp);
  }
  return a;
}

void two_nodes(const std::string& spp) {
  std::string why;
  const auto ns = test::NetnsPair::create(&why);
  if (!ns) GTEST_SKIP() << why;
  const std::string a0 = ns->address(0), a1 = ns->address(1);
  auto target = xbtest::start_binary(ns->program(), ns->args_to_run(1, node("1", a1, a0, spp)));
  const auto source = xbtest::run_binary(ns->program(), ns->args_to_run(0, node("0", a0, a1, spp)));
  const auto t = target.wait_for(60s);
  ASSERT_TRUE(t.has_value());
  ASSERT_TRUE(source.exited && source.exit_code == 0) << source.describe();
  ASSERT_TRUE(t->exited && t->exit_code == 0) << t->describe();
  const auto s_lines = xbtest::split_lines(source.out), t_lines = xbtest::split_lines(t->out);
  ASSERT_EQ(s_lines.size(), 16u) << source.out;
  ASSERT_EQ(t_lines.size(), 16u) << t->out;
  EXPECT_EQ(s_lines[1], "Pod: " + a0 + " device id: 0 to Pod: " + a1 + " device id: 0");
  EXPECT_EQ(t_lines[1], "Pod: " + a1 + " device id: 0 to Pod: " + a0 + " device id: 0");
  EXPECT_EQ(s_lines[9], "Pod: " + a0 + " device id: 0 and Pod: " + a1 + " device id: 0");
  EXPECT_EQ(s_lines[5], t_lines[5]) << "one measurement, printed on both nodes";
  EXPECT_EQ(s_lines[13], t_lines[13]);
}

TEST(AscendDmiNetns, PeerIpBetweenTwoNamespaces) { two_nodes(""); }

TEST(AscendDmiNetns, SharedDirectoryBetweenTwoNamespaces) {
  test::SharedDir spp;
  two_nodes(spp.path.string());
  EXPECT_TRUE(std::filesystem::is_empty(spp.path)) << "everything made in DIR was removed";
}

}  // namespace
}  // namespace xb
