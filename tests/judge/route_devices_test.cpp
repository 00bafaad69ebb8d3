// The network devices under a link or xfer figure: read from UCX's lanes (RDMA ports, interfaces,
// shared memory), else from the kernel's route to the peer (loopback here); RDMA port rates with
// their encodings; several rails summed.
#include <gtest/gtest.h>

#include "judge/nic_ceiling.hpp"
#include "judge/pcie_rate.hpp"
#include "judge/route_devices.hpp"
#include "synthetic_sysfs.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::FakePort;
using test::speed_text;
using test::SyntheticSysfs;

using test::has;

TEST(RouteDevices, TheLanesNameRdmaPortsAndInterfacesOnce) {
  const RouteDevices r = route_devices("rc_mlx5/mlx5_0:1, rc_mlx5/mlx5_1:1, ud_mlx5/mlx5_0:1, tcp/eth0, posix/memory",
                                       "10.0.0.2");
  EXPECT_EQ(r.rdma_ports, (std::vector<std::string>{"mlx5_0:1", "mlx5_1:1"}));
  EXPECT_EQ(r.interfaces, std::vector<std::string>{"eth0"});
  EXPECT_EQ(r.why, "");
  // One interface and no RDMA port (UCX over tcp, or the plain transport's route): that interface,
  // never taken for loopback.
  const RouteDevices tcp = route_devices("tcp/eth0", "10.0.0.2");
  EXPECT_TRUE(tcp.rdma_ports.empty());
  EXPECT_EQ(tcp.interfaces, std::vector<std::string>{"eth0"});
  EXPECT_EQ(tcp.why, "");
}

TEST(RouteDevices, SharedMemoryAndLoopbackAreNoNetworkDevice) {
  RouteDevices r = route_devices("posix/memory, cma/memory", "127.0.0.1");
  EXPECT_TRUE(r.interfaces.empty() && r.rdma_ports.empty());
  EXPECT_EQ(r.why, "the peer is on this host: the data moved through memory (posix/memory, cma/memory)");
  r = route_devices("tcp/lo", "127.0.0.1");
  EXPECT_TRUE(r.interfaces.empty());
  EXPECT_EQ(r.why, "the peer (127.0.0.1) is this host: loopback, no network device");
  // The plain tcp transport names no device: the kernel's route does (loopback for 127.0.0.1).
  r = route_devices("tcp", "127.0.0.1");
  EXPECT_TRUE(r.interfaces.empty());
  EXPECT_EQ(r.why, "the peer (127.0.0.1) is this host: loopback, no network device");
  const Ceiling c = route_ceiling("/sys", r);
  EXPECT_FALSE(c.bytes_per_second);
  EXPECT_EQ(c.derivation, r.why);
}

TEST(RouteDevices, TheKernelsRouteNamesTheInterface) {
  std::string why;
  EXPECT_EQ(interface_toward("127.0.0.1", why), "lo") << why;
  EXPECT_EQ(interface_toward("eth0", why), "");
  EXPECT_EQ(why, "'eth0' is not a numeric address");
}

TEST(RdmaPortCeiling, RatesWithTheirEncodings) {
  SyntheticSysfs sys;
  sys.add_rdma_port("mlx5_0", 1, "200 Gb/sec (4X HDR)");
  sys.add_rdma_port("mlx4_0", 1, "40 Gb/sec (4X QDR)");
  sys.add_rdma_port("mlx4_1", 2, "56 Gb/sec (4X FDR)");
  sys.add_rdma_port("rxe0", 1, "");
  NicCeiling n = rdma_port_ceiling(sys.root(), "mlx5_0:1");
  ASSERT_TRUE(n.ceiling.bytes_per_second) << n.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*n.ceiling.bytes_per_second, 25e9);
  EXPECT_EQ(n.ceiling.derivation, "mlx5_0:1: port at 200 Gb/sec (4X HDR) (the data rate)");
  EXPECT_DOUBLE_EQ(*rdma_port_ceiling(sys.root(), "mlx4_0").ceiling.bytes_per_second, 4e9);  // port 1 by default
  EXPECT_DOUBLE_EQ(*rdma_port_ceiling(sys.root(), "mlx4_1:2").ceiling.bytes_per_second, 56e9 * 64 / 66 / 8);
  n = rdma_port_ceiling(sys.root(), "rxe0:1");
  EXPECT_FALSE(n.ceiling.bytes_per_second);
  EXPECT_EQ(n.ceiling.derivation, "rxe0:1: port rate not reported (no rate)");
}

TEST(RdmaPortCeiling, ThePcieSlotCanBeTheNarrowerAndRailsAdd) {
  SyntheticSysfs sys;
  const auto rp = sys.add(FakePort{"0000:00:01.0", speed_text(3), 16, speed_text(3), 16, PciePortType::root_port, false});
  const auto hca = sys.add(FakePort{"0000:3b:00.0", speed_text(3), 16, speed_text(3), 16, PciePortType::endpoint, false}, rp);
  sys.add_rdma_port("mlx5_0", 1, "200 Gb/sec (4X HDR)", hca);
  const NicCeiling n = rdma_port_ceiling(sys.root(), "mlx5_0:1");
  EXPECT_EQ(n.pci_address, "0000:3b:00.0");
  EXPECT_DOUBLE_EQ(*n.ceiling.bytes_per_second, 16 * pcie_lane_bytes_per_second(8.0));  // Gen3 x16 < HDR
  EXPECT_TRUE(has(n.ceiling.derivation, "PCIe Gen3 x16")) << n.ceiling.derivation;

  sys.add_rdma_port("mlx5_1", 1, "100 Gb/sec (4X EDR)");
  RouteDevices two;
  two.rdma_ports = {"mlx5_0:1", "mlx5_1:1"};
  const Ceiling c = route_ceiling(sys.root(), two);
  ASSERT_TRUE(c.bytes_per_second) << c.derivation;
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 16 * pcie_lane_bytes_per_second(8.0) + 12.5e9);
  EXPECT_TRUE(has(c.derivation, "the sum over 2 rails: ")) << c.derivation;
}

}  // namespace
}  // namespace xb
