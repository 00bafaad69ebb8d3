// ascend-dmi's two-node mode without MPI (--sp 0/1 --ip PEER --hip SELF), for real: two processes
// on two loopback addresses (127.0.0.1 and 127.0.0.2), each with its own device, transport and
// session server, meeting over the rendezvous connection. Both print the seed's two blocks with
// their own address first and the same figures; a peer that never comes is the start-window error
// (about 10 s, not a hang) on either side; nodes started with different --et refuse to run.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "two_nodes.hpp"

namespace xb {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> node(const std::string& sp, const std::string& self, const std::string& peer,
                              const std::string& et = "3") {
  return {"--bw", "-t", "p2p", "--sp", sp, "--ip", peer, "--hip", self, "-s", "1048576", "--et", et, "-q"};
}

TEST(AscendDmiPeerIp, TwoNodesMeetAndPrintTheSameFigures) {
  // The target node first: it retries until the source node listens.
  const auto r = test::run_two(XB_ASCEND_DMI_LINK, node("1", "127.0.0.2", "127.0.0.1"),
                               node("0", "127.0.0.1", "127.0.0.2"));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  test::expect_ascend_dmi_pair(*r, "127.0.0.1", "127.0.0.2");
  const auto s_lines = xbtest::split_lines(r->second.out);
  ASSERT_EQ(s_lines.size(), 16u);
  EXPECT_EQ(s_lines[5].substr(0, 23), "     1048576          3");
}

TEST(AscendDmiPeerIp, APeerThatNeverComesIsTheStartWindowError) {
  // Neither meets the other (different addresses): each gives up after the 10 s start window.
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = test::run_two(XB_ASCEND_DMI_LINK, node("1", "127.0.0.4", "127.0.0.5"),
                               node("0", "127.0.0.3", "127.0.0.6"));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  const xbtest::RunResult &t = r->first, &source = r->second;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 40s) << "no hang";
  EXPECT_EQ(source.exit_code, 1) << source.describe();
  EXPECT_EQ(source.err,
            "ascend-dmi: error: no peer connected to 127.0.0.3:20005 within 10 s: start the other node within the "
            "start window\n");
  EXPECT_EQ(t.exit_code, 1) << t.describe();
  EXPECT_EQ(t.err.rfind("ascend-dmi: error: no peer at 127.0.0.5:20005 after 10 s (", 0), 0u) << t.err;
  EXPECT_EQ(source.out, "");
  EXPECT_EQ(t.out, "");
}

TEST(AscendDmiPeerIp, NodesWithDifferentExecuteTimesRefuseToRun) {
  const auto r = test::run_two(XB_ASCEND_DMI_LINK, node("1", "127.0.0.8", "127.0.0.7", "4"),
                               node("0", "127.0.0.7", "127.0.0.8", "3"));
  ASSERT_TRUE(r.has_value()) << "a node hung";
  const xbtest::RunResult &t = r->first, &source = r->second;
  for (const auto* run : {&source, &t}) {
    EXPECT_EQ(run->exit_code, 1) << run->describe();
    EXPECT_NE(run->err.find("the ranks disagree: rank 0 runs with -s 1048576, --et 3"), std::string::npos) << run->err;
    EXPECT_NE(run->err.find("rank 1 with -s 1048576, --et 4"), std::string::npos) << run->err;
    EXPECT_EQ(run->out, "");
  }
}

}  // namespace
}  // namespace xb
