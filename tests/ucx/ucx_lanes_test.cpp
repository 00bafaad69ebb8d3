// Reading an endpoint's lanes from ucp_ep_print_info's text, and the data path chosen from them.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "transport/ucx/ucx_lanes.hpp"
#include "ucx/ucx_test_support.hpp"

namespace xb::ucx {
namespace {

// As UCX 1.13 prints a client-server endpoint with UCX_TLS=tcp.
constexpr const char* kTcpOnly = R"(#
# UCP endpoint
#
#               peer: <no debug data>
#                 lane[0]: cm rdmacm
#                 lane[1]:  1:tcp/lo.0 md[0]                -> md[0]/tcp/sysdev[255] rma_bw#0 am am_bw#0 wireup
#                 lane[2]:  0:tcp/eth0.0 md[0]              -> md[0]/tcp/sysdev[255] rma_bw#1
#
#                 am_send: 0..<egr/short>..8185..<egr/zcopy>..8192..<rndv>..(inf)
#
#                  rma_bw: mds [0] rndv_rkey_size 10
#
)";

// As UCX 1.13 prints a shared-memory endpoint: sysv carries active messages, sysv and posix the
// one-sided operations (their own lines), tcp the bandwidth lanes and the wire-up.
constexpr const char* kShm = R"(#
#                 lane[0]:  3:sysv/memory.0 md[2]           -> md[2]/sysv/sysdev[255] am am_bw#0 keepalive
#                 lane[1]:  4:posix/memory.0 md[3]          -> md[3]/posix/sysdev[255]
#                 lane[2]:  2:tcp/lo.0 md[1]                -> md[1]/tcp/sysdev[255] rma_bw#0 wireup
#
#                 am_send: 0..<egr/short>..93..<egr/bcopy>..8256..<rndv>..(inf)
#                  put[0]: 0..<short>..4294967296..<bcopy>..(inf)
#                  get[0]: 0..<bcopy>..(inf)
#                  put[1]: 0..<short>..4294967296..<bcopy>..(inf)
#                  get[1]: 0..<bcopy>..(inf)
)";

// Shared memory with cma: no one-sided lane of its own but the bandwidth lane.
constexpr const char* kCma = R"(#
#                 lane[0]:  3:sysv/memory.0 md[2]           -> md[2]/sysv/sysdev[255] am am_bw#0
#                 lane[1]:  5:cma/memory.0 md[4]            -> md[4]/cma/sysdev[255] rma_bw#0
)";

TEST(UcxLanes, ParsesTransportDeviceAndRoles) {
  const auto lanes = parse_lanes(kTcpOnly);
  ASSERT_EQ(lanes.size(), 2u);  // the connection manager's lane is not a transport
  EXPECT_EQ(lanes[0].transport, "tcp");
  EXPECT_EQ(lanes[0].device, "lo");
  EXPECT_EQ(lanes[0].roles, (std::vector<std::string>{"rma_bw", "am", "am_bw", "wireup"}));
  EXPECT_EQ(lanes[1].device, "eth0");
  EXPECT_EQ(describe_lanes(lanes), "tcp/lo, tcp/eth0");
}

TEST(UcxLanes, RmaOverTcpIsEmulatedSoActiveMessagesAreChosen) {
  const auto lanes = parse_lanes(kTcpOnly);
  EXPECT_FALSE(rma_is_native(lanes));
  EXPECT_EQ(choose_protocol(lanes, std::nullopt), Protocol::am);
  EXPECT_EQ(choose_protocol(lanes, Protocol::rma), Protocol::rma);
}

TEST(UcxLanes, SharedMemoryRmaIsNative) {
  const auto lanes = parse_lanes(kShm);
  ASSERT_EQ(lanes.size(), 3u);
  EXPECT_TRUE(rma_is_native(lanes));
  EXPECT_EQ(choose_protocol(lanes, std::nullopt), Protocol::rma);
  EXPECT_EQ(choose_protocol(lanes, Protocol::am), Protocol::am);
  EXPECT_EQ(lanes[0].roles, (std::vector<std::string>{"am", "am_bw", "keepalive", "rma"}));
  EXPECT_EQ(lanes[1].roles, (std::vector<std::string>{"rma"}));
  EXPECT_EQ(lanes[2].roles, (std::vector<std::string>{"rma_bw", "wireup"}));
  EXPECT_EQ(describe_lanes(lanes), "sysv/memory, posix/memory, tcp/lo");
  EXPECT_TRUE(rma_is_native(parse_lanes(kCma)));
}

TEST(UcxLanes, NoLanesMeansEmulation) {
  EXPECT_TRUE(parse_lanes("").empty());
  EXPECT_FALSE(rma_is_native({}));
}

TEST(UcxLanes, ProtocolOverrideFromTheEnvironment) {
  {
    test::ScopedEnv env("XFERBENCH_UCX_PROTOCOL", "am");
    EXPECT_EQ(protocol_from_environment(), Protocol::am);
  }
  {
    test::ScopedEnv env("XFERBENCH_UCX_PROTOCOL", "rma");
    EXPECT_EQ(protocol_from_environment(), Protocol::rma);
  }
  {
    test::ScopedEnv env("XFERBENCH_UCX_PROTOCOL", std::nullopt);
    EXPECT_EQ(protocol_from_environment(), std::nullopt);
  }
  test::ScopedEnv env("XFERBENCH_UCX_PROTOCOL", "rdma");
  try {
    protocol_from_environment();
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "XFERBENCH_UCX_PROTOCOL: 'rdma' is not rma or am (or unset for automatic)");
  }
}

}  // namespace
}  // namespace xb::ucx
