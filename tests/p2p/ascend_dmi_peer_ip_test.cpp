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

namespace xb {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> node(const std::string& sp, const std::string& self, const std::string& peer,
                              const std::string& et = "3") {
  return {"--bw", "-t", "p2p", "--sp", sp, "--ip", peer, "--hip", self, "-s", "1048576", "--et", et, "-q"};
}

TEST(AscendDmiPeerIp, TwoNodesMeetAndPrintTheSameFigures) {
  // The target node first: it retries until the source node listens.
  auto target = xbtest::start_binary(XB_ASCEND_DMI_LINK, node("1", "127.0.0.2", "127.0.0.1"));
  const auto source = xbtest::run_binary(XB_ASCEND_DMI_LINK, node("0", "127.0.0.1", "127.0.0.2"));
  const auto t = target.wait_for(60s);
  ASSERT_TRUE(t.has_value());
  ASSERT_TRUE(source.exited && source.exit_code == 0) << source.describe();
  ASSERT_TRUE(t->exited && t->exit_code == 0) << t->describe();
  const auto s_lines = xbtest::split_lines(source.out), t_lines = xbtest::split_lines(t->out);
  ASSERT_EQ(s_lines.size(), 16u) << source.out;
  ASSERT_EQ(t_lines.size(), 16u) << t->out;
  EXPECT_EQ(s_lines[0], "Unidirectional Peer to Peer Test");
  EXPECT_EQ(s_lines[1], "Pod: 127.0.0.1 device id: 0 to Pod: 127.0.0.2 device id: 0");
  EXPECT_EQ(t_lines[1], "Pod: 127.0.0.2 device id: 0 to Pod: 127.0.0.1 device id: 0");
  EXPECT_EQ(s_lines[8], "Bidirectional Peer to Peer Test");
  EXPECT_EQ(s_lines[9], "Pod: 127.0.0.1 device id: 0 and Pod: 127.0.0.2 device id: 0");
  EXPECT_EQ(t_lines[9], "Pod: 127.0.0.2 device id: 0 and Pod: 127.0.0.1 device id: 0");
  // One measurement, printed on both nodes: the rows are the same text.
  EXPECT_EQ(s_lines[5], t_lines[5]);
  EXPECT_EQ(s_lines[13], t_lines[13]);
  EXPECT_EQ(s_lines[5].substr(0, 23), "     1048576          3");
}

TEST(AscendDmiPeerIp, APeerThatNeverComesIsTheStartWindowError) {
  // Neither meets the other (different addresses): each gives up after the 10 s start window.
  const auto t0 = std::chrono::steady_clock::now();
  auto target = xbtest::start_binary(XB_ASCEND_DMI_LINK, node("1", "127.0.0.4", "127.0.0.5"));
  const auto source = xbtest::run_binary(XB_ASCEND_DMI_LINK, node("0", "127.0.0.3", "127.0.0.6"));
  const auto t = target.wait_for(60s);
  ASSERT_TRUE(t.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 40s) << "no hang";
  EXPECT_EQ(source.exit_code, 1) << source.describe();
  EXPECT_EQ(source.err,
            "ascend-dmi: error: no peer connected to 127.0.0.3:20005 within 10 s: start the other node within the "
            "start window\n");
  EXPECT_EQ(t->exit_code, 1) << t->describe();
  EXPECT_EQ(t->err.rfind("ascend-dmi: error: no peer at 127.0.0.5:20005 after 10 s (", 0), 0u) << t->err;
  EXPECT_EQ(source.out, "");
  EXPECT_EQ(t->out, "");
}

TEST(AscendDmiPeerIp, NodesWithDifferentExecuteTimesRefuseToRun) {
  auto target = xbtest::start_binary(XB_ASCEND_DMI_LINK, node("1", "127.0.0.8", "127.0.0.7", "4"));
  const auto source = xbtest::run_binary(XB_ASCEND_DMI_LINK, node("0", "127.0.0.7", "127.0.0.8", "3"));
  const auto t = target.wait_for(60s);
  ASSERT_TRUE(t.has_value());
  for (const auto* r : {&source, &*t}) {
    EXPECT_EQ(r->exit_code, 1) << r->describe();
    EXPECT_NE(r->err.find("the ranks disagree: rank 0 runs with -s 1048576, --et 3"), std::string::npos) << r->err;
    EXPECT_NE(r->err.find("rank 1 with -s 1048576, --et 4"), std::string::npos) << r->err;
    EXPECT_EQ(r->out, "");
  }
}

}  // namespace
}  // namespace xb
