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
#include "two_nodes.hpp"
#include "support/netns.hpp"
#include "support/shared_dir.hpp"

namespace xb {
namespace {

std::vector<std::string> node(const std::string& sp, const std::string& self, const std::string& peer,
                              const std::string& spp) {
  // Off loopback the nodes need a token of their own; ascend-dmi has no flag for it: the environment.
  std::vector<std::string> a = {"env", "XFERBENCH_TOKEN=ascend-dmi-netns-token", XB_ASCEND_DMI_LINK, "--bw", "-t", "p2p",
                                "--sp", sp, "--ip", peer, "--hip", self, "-s", "1048576", "--et", "3", "-q"};
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
  const auto r = test::run_two(ns->program(), ns->args_to_run(1, node("1", a1, a0, spp)),
                               ns->args_to_run(0, node("0", a0, a1, spp)));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  test::expect_ascend_dmi_pair(*r, a0, a1);
}

TEST(AscendDmiNetns, PeerIpBetweenTwoNamespaces) { two_nodes(""); }

TEST(AscendDmiNetns, SharedDirectoryBetweenTwoNamespaces) {
  test::SharedDir spp;
  two_nodes(spp.path.string());
  EXPECT_TRUE(std::filesystem::is_empty(spp.path)) << "everything made in DIR was removed";
}

}  // namespace
}  // namespace xb
