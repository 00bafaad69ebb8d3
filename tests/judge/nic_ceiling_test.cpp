// NIC ceilings in a synthetic sysfs: the port speed against the PCIe link behind it, the narrower
// deciding; a port that reports no speed; a virtual interface; loopback left out.
#include <gtest/gtest.h>

#include "judge/nic_ceiling.hpp"
#include "judge/pcie_rate.hpp"
#include "synthetic_sysfs.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::FakePort;
using test::speed_text;
using test::SyntheticSysfs;

using test::has;

std::filesystem::path nic_under_root_port(SyntheticSysfs& sys, int gen, int width) {
  const auto rp = sys.add(FakePort{"0000:00:02.0", speed_text(gen), width, speed_text(gen), width,
                                   PciePortType::root_port, false});
  return sys.add(FakePort{"0000:3b:00.0", speed_text(gen), width, speed_text(gen), width, PciePortType::endpoint, false},
                 rp);
}

TEST(NicCeiling, ThePortDecidesWhenPcieIsWider) {
  SyntheticSysfs sys;
  sys.add_nic("ens1f0", "100000", nic_under_root_port(sys, 4, 16));
  const NicCeiling n = nic_ceiling(sys.root(), "ens1f0");
  EXPECT_EQ(n.pci_address, "0000:3b:00.0");
  EXPECT_DOUBLE_EQ(*n.ceiling.bytes_per_second, 100000e6 / 8);
  EXPECT_TRUE(has(n.ceiling.derivation, "ens1f0: port at 100000 Mb/s")) << n.ceiling.derivation;
  EXPECT_TRUE(has(n.ceiling.derivation, "PCIe Gen4 x16")) << n.ceiling.derivation;
}

TEST(NicCeiling, PcieDecidesWhenThePortIsFaster) {
  // A 400 Gb/s port (50 GB/s) in a Gen4 x16 slot (31.5 GB/s): the slot is the ceiling.
  SyntheticSysfs sys;
  sys.add_nic("ens2", "400000", nic_under_root_port(sys, 4, 16));
  const NicCeiling n = nic_ceiling(sys.root(), "ens2");
  EXPECT_DOUBLE_EQ(*n.ceiling.bytes_per_second, 16 * pcie_lane_bytes_per_second(16.0));
}

TEST(NicCeiling, APortWithoutSpeedKeepsThePcieBoundAndSaysSo) {
  SyntheticSysfs sys;
  sys.add_nic("ens3", "-1", nic_under_root_port(sys, 3, 8), "down");
  const NicCeiling n = nic_ceiling(sys.root(), "ens3");
  EXPECT_DOUBLE_EQ(*n.ceiling.bytes_per_second, 8 * pcie_lane_bytes_per_second(8.0));
  EXPECT_TRUE(has(n.ceiling.derivation, "ens3: port speed not reported (speed -1, link down)")) << n.ceiling.derivation;
}

TEST(NicCeiling, AVirtualInterfaceWithoutSpeedIsUnknown) {
  SyntheticSysfs sys;
  sys.add_nic("veth0", "", {});
  const NicCeiling n = nic_ceiling(sys.root(), "veth0");
  EXPECT_EQ(n.pci_address, "");
  EXPECT_FALSE(n.ceiling.bytes_per_second);
  EXPECT_TRUE(has(n.ceiling.derivation, "veth0: port speed not reported (no speed, link up)")) << n.ceiling.derivation;
}

TEST(NicCeiling, AVirtioNicFindsThePciFunctionAboveIt) {
  SyntheticSysfs sys;
  const auto pci = sys.add(FakePort{"0000:00:03.0", "", 0, "", 0, PciePortType::endpoint, false});
  std::filesystem::create_directories(pci / "virtio0");
  sys.add_nic("eth0", "-1", pci / "virtio0");
  const NicCeiling n = nic_ceiling(sys.root(), "eth0");
  EXPECT_EQ(n.pci_address, "0000:00:03.0");
  EXPECT_FALSE(n.ceiling.bytes_per_second);
  EXPECT_TRUE(has(n.ceiling.derivation, "no PCIe link reported for 0000:00:03.0")) << n.ceiling.derivation;
}

TEST(NicCeiling, EveryInterfaceButLoopbackInNameOrder) {
  SyntheticSysfs sys;
  sys.add_nic("lo", "");
  sys.add_nic("eth1", "25000");
  sys.add_nic("eth0", "10000");
  const auto all = nic_ceilings(sys.root());
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "eth0");
  EXPECT_DOUBLE_EQ(*all[0].ceiling.bytes_per_second, 10000e6 / 8);
  EXPECT_EQ(all[1].name, "eth1");
}

}  // namespace
}  // namespace xb
