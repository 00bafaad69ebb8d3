// A device's PCIe path in synthetic sysfs trees: the ceiling is the narrowest link up to the root
// port, at every generation and width; a link trained below what both its ends can do is named; a
// slot older than the card is not a fault; behind a switch the uplink counts; an unprivileged read
// says what it could not judge.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "judge/pcie_path.hpp"
#include "judge/pcie_rate.hpp"
#include "synthetic_sysfs.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::FakePort;
using test::speed_text;
using test::SyntheticSysfs;

using test::has;

FakePort port(const std::string& address, int gen, int width, int max_gen, int max_width, PciePortType type) {
  return FakePort{address, speed_text(gen), width, speed_text(max_gen), max_width, type, false};
}

class PcieEveryLink : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(PcieEveryLink, TheCeilingIsTheLinkAsTrained) {
  const auto [gen, width] = GetParam();
  SyntheticSysfs sys;
  const auto rp = sys.add(port("0000:00:01.0", gen, width, gen, width, PciePortType::root_port));
  sys.add(port("0000:01:00.0", gen, width, gen, width, PciePortType::endpoint), rp);
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:01:00.0");
  const double gts = *parse_pcie_link_speed(speed_text(gen));
  ASSERT_TRUE(c.bytes_per_second) << c.derivation;
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, pcie_lane_bytes_per_second(gts) * width);
  EXPECT_DOUBLE_EQ(*c.capable_bytes_per_second, *c.bytes_per_second);
  EXPECT_TRUE(has(c.derivation, "PCIe Gen" + std::to_string(gen) + " x" + std::to_string(width))) << c.derivation;
  EXPECT_TRUE(has(c.derivation, "0000:01:00.0 ↔ 0000:00:01.0")) << c.derivation;
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
}

INSTANTIATE_TEST_SUITE_P(GenerationsAndWidths, PcieEveryLink,
                         ::testing::Combine(::testing::Values(3, 4, 5), ::testing::Values(4, 8, 16)),
                         [](const auto& param_info) {
                           return "Gen" + std::to_string(std::get<0>(param_info.param)) + "x" +
                                  std::to_string(std::get<1>(param_info.param));
                         });

TEST(PciePath, ALinkTrainedNarrowIsNamedAndTheCeilingIsWhatItRuns) {
  SyntheticSysfs sys;
  const auto rp = sys.add(port("0000:00:01.0", 4, 8, 4, 16, PciePortType::root_port));
  sys.add(port("0000:01:00.0", 4, 8, 4, 16, PciePortType::endpoint), rp);
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:01:00.0");
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 8 * pcie_lane_bytes_per_second(16.0));
  EXPECT_DOUBLE_EQ(*c.capable_bytes_per_second, 16 * pcie_lane_bytes_per_second(16.0));
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0], "PCIe link 0000:01:00.0 ↔ 0000:00:01.0 runs at Gen4 x8 but both its ends can run Gen4 x16");
}

// A maximum width that reads 0 (unknown: some virtual functions and bridges) is no maximum: the
// link is judged as it runs, on either end, and nothing is called trained low.
TEST(PciePath, AnEndWhoseMaximumWidthReadsZeroIsJudgedAsItRuns) {
  for (const bool device_end : {true, false}) {
    SCOPED_TRACE(device_end ? "the device's maximum reads 0" : "the root port's maximum reads 0");
    SyntheticSysfs sys;
    const auto rp = sys.add(port("0000:00:01.0", 4, 16, 4, device_end ? 16 : 0, PciePortType::root_port));
    sys.add(port("0000:01:00.0", 4, 16, 4, device_end ? 0 : 16, PciePortType::endpoint), rp);
    const Ceiling c = pcie_ceiling_of(sys.root(), "0000:01:00.0");
    ASSERT_TRUE(c.bytes_per_second) << c.derivation;
    EXPECT_DOUBLE_EQ(*c.bytes_per_second, 16 * pcie_lane_bytes_per_second(16.0));
    ASSERT_TRUE(c.capable_bytes_per_second) << c.derivation;
    EXPECT_DOUBLE_EQ(*c.capable_bytes_per_second, *c.bytes_per_second);
    EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  }
}

TEST(PciePath, ALinkTrainedSlowIsNamedWithTheIdleCaveat) {
  SyntheticSysfs sys;
  const auto rp = sys.add(port("0000:00:01.0", 1, 16, 5, 16, PciePortType::root_port));
  sys.add(port("0000:01:00.0", 1, 16, 5, 16, PciePortType::endpoint), rp);
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:01:00.0");
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 16 * 250e6);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_TRUE(has(c.warnings[0], "runs at Gen1 x16 but both its ends can run Gen5 x16")) << c.warnings[0];
  EXPECT_TRUE(has(c.warnings[0], "read it again under load")) << c.warnings[0];
}

TEST(PciePath, ASlotOlderThanTheCardIsNotAFault) {
  SyntheticSysfs sys;
  const auto rp = sys.add(port("0000:00:01.0", 3, 16, 3, 16, PciePortType::root_port));
  sys.add(port("0000:01:00.0", 3, 16, 4, 16, PciePortType::endpoint), rp);
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:01:00.0");
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 16 * pcie_lane_bytes_per_second(8.0));
  EXPECT_DOUBLE_EQ(*c.capable_bytes_per_second, *c.bytes_per_second);  // the slot's Gen3 bounds the link
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
}

TEST(PciePath, BehindASwitchTheNarrowUplinkDecides) {
  SyntheticSysfs sys;
  const auto rp = sys.add(port("0000:00:01.0", 4, 4, 4, 16, PciePortType::root_port));
  const auto usp = sys.add(port("0000:01:00.0", 4, 4, 4, 16, PciePortType::upstream_switch_port), rp);
  const auto dsp = sys.add(port("0000:02:08.0", 4, 16, 4, 16, PciePortType::downstream_switch_port), usp);
  sys.add(port("0000:03:00.0", 4, 16, 4, 16, PciePortType::endpoint), dsp);
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:03:00.0");
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 4 * pcie_lane_bytes_per_second(16.0));
  EXPECT_TRUE(has(c.derivation, "PCIe Gen4 x4")) << c.derivation;
  EXPECT_TRUE(has(c.derivation, "at 0000:01:00.0 ↔ 0000:00:01.0")) << c.derivation;
  EXPECT_TRUE(has(c.derivation, "from 0000:03:00.0 up to 0000:00:01.0")) << c.derivation;
  ASSERT_EQ(c.warnings.size(), 1u);  // the uplink, not the card's own link
  EXPECT_EQ(c.warnings[0], "PCIe link 0000:01:00.0 ↔ 0000:00:01.0 runs at Gen4 x4 but both its ends can run Gen4 x16");
}

TEST(PciePath, ASwitchesDownstreamPortIsNotJudgedAgainstItsOwnUplink) {
  // A Gen3 card under a Gen4 switch: the downstream port reads Gen3 (its link to the card), which
  // is right; paired with the switch's upstream port it would look trained low.
  SyntheticSysfs sys;
  const auto rp = sys.add(port("0000:00:01.0", 4, 16, 4, 16, PciePortType::root_port));
  const auto usp = sys.add(port("0000:01:00.0", 4, 16, 4, 16, PciePortType::upstream_switch_port), rp);
  const auto dsp = sys.add(port("0000:02:08.0", 3, 16, 4, 16, PciePortType::downstream_switch_port), usp);
  sys.add(port("0000:03:00.0", 3, 16, 3, 16, PciePortType::endpoint), dsp);
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:03:00.0");
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 16 * pcie_lane_bytes_per_second(8.0));
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
}

TEST(PciePath, UnprivilegedTheCeilingStandsAndWhatWasNotJudgedIsSaid) {
  SyntheticSysfs sys;
  auto rp_port = port("0000:00:01.0", 4, 16, 4, 16, PciePortType::root_port);
  rp_port.config_root_only = true;
  const auto rp = sys.add(rp_port);
  auto usp_port = port("0000:01:00.0", 3, 8, 4, 16, PciePortType::upstream_switch_port);
  usp_port.config_root_only = true;
  const auto usp = sys.add(usp_port, rp);
  auto ep = port("0000:02:00.0", 4, 16, 4, 16, PciePortType::endpoint);
  ep.config_root_only = true;
  sys.add(ep, usp);
  const PciePath path = read_pcie_path(sys.root(), "0000:02:00.0");
  ASSERT_EQ(path.ports.size(), 3u);
  for (const auto& p : path.ports) EXPECT_EQ(p.type, PciePortType::unknown) << p.address;
  const Ceiling c = pcie_ceiling(path);
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 8 * pcie_lane_bytes_per_second(8.0));  // the uplink still bounds it
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_TRUE(has(c.warnings[0], "port types above 0000:02:00.0 are unknown")) << c.warnings[0];
}

TEST(PciePath, ReadsThePortTypeFromTheCapabilityList) {
  SyntheticSysfs sys;
  const auto rp = sys.add(port("0000:00:1c.4", 4, 16, 4, 16, PciePortType::root_port));
  sys.add(port("0000:01:00.0", 4, 16, 4, 16, PciePortType::endpoint), rp);
  const PciePath path = read_pcie_path(sys.root(), "0000:01:00.0");
  ASSERT_EQ(path.ports.size(), 2u);
  EXPECT_EQ(path.ports[0].address, "0000:01:00.0");
  EXPECT_EQ(path.ports[0].type, PciePortType::endpoint);
  EXPECT_EQ(path.ports[1].address, "0000:00:1c.4");
  EXPECT_EQ(path.ports[1].type, PciePortType::root_port);
  EXPECT_EQ(path.ports[1].current_width, 16);
  EXPECT_EQ(path.ports[1].max_gts, 16.0);
}

// As real devices have it: power management first, then MSI, then PCI Express, each capability's
// second byte pointing at the next.
TEST(PciePath, ThePciExpressCapabilityIsFoundDownTheChain) {
  std::string c(256, '\0');
  c[0x06] = 0x10;
  c[0x34] = 0x48;
  c[0x48] = 0x01;  // power management
  c[0x49] = 0x60;
  c[0x60] = 0x05;  // MSI
  c[0x61] = static_cast<char>(0x80);
  c[0x80] = 0x10;  // PCI Express
  c[0x82] = 0x40;  // device/port type 4: root port
  EXPECT_EQ(pcie_port_type(c), PciePortType::root_port);
  c[0x61] = 0;  // the chain ends at MSI
  EXPECT_EQ(pcie_port_type(c), PciePortType::unknown);
}

TEST(PciePath, AMalformedCapabilityListEndsUnknown) {
  std::string c(256, '\0');
  c[0x06] = 0x10;
  c[0x34] = 0x40;
  c[0x40] = 0x01;  // power management, pointing at itself: a loop
  c[0x41] = 0x40;
  EXPECT_EQ(pcie_port_type(c), PciePortType::unknown);
  c[0x41] = static_cast<char>(0xFC);  // past the end of what was read
  EXPECT_EQ(pcie_port_type(c), PciePortType::unknown);
  c[0x06] = 0;  // no capability list at all
  EXPECT_EQ(pcie_port_type(c), PciePortType::unknown);
  EXPECT_EQ(pcie_port_type(std::string(63, '\0')), PciePortType::unknown);
}

TEST(PciePath, ADeviceWithoutLinkAttributesHasNoCeilingAndSaysWhy) {
  SyntheticSysfs sys;
  sys.add(FakePort{"0000:00:03.0", "", 0, "", 0, PciePortType::integrated_endpoint, false});
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:00:03.0");
  EXPECT_FALSE(c.bytes_per_second);
  EXPECT_TRUE(has(c.derivation, "no PCIe link reported for 0000:00:03.0")) << c.derivation;
}

// A speed without a width (a link down reads width 0) is no link either: nothing to judge from.
TEST(PciePath, ASpeedWithoutAWidthIsNoLink) {
  SyntheticSysfs sys;
  sys.add(FakePort{"0000:00:03.0", speed_text(4), 0, speed_text(4), 16, PciePortType::integrated_endpoint, false});
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:00:03.0");
  EXPECT_FALSE(c.bytes_per_second);
  EXPECT_TRUE(has(c.derivation, "no PCIe link reported for 0000:00:03.0")) << c.derivation;
}

TEST(PciePath, ADeviceNotInSysfsIsNamed) {
  SyntheticSysfs sys;
  const Ceiling c = pcie_ceiling_of(sys.root(), "0000:AB:00.0");
  EXPECT_FALSE(c.bytes_per_second);
  EXPECT_TRUE(has(c.derivation, "PCI device 0000:ab:00.0: not in ")) << c.derivation;
  EXPECT_THROW(read_pcie_path(sys.root(), "0000:ab:00.0"), std::runtime_error);
}

TEST(PciePath, AddressesAreSysfsNames) {
  EXPECT_TRUE(is_pci_address("0000:18:00.0"));
  EXPECT_TRUE(is_pci_address("10000:e0:17.0"));  // Intel VMD's domains
  EXPECT_FALSE(is_pci_address("000:18:00.0"));
  EXPECT_FALSE(is_pci_address("0000:18:00.0x"));
  EXPECT_FALSE(is_pci_address("pci0000:00"));
  EXPECT_FALSE(is_pci_address("0000:18:00.8"));
  EXPECT_FALSE(is_pci_address("virtio0"));
}

}  // namespace
}  // namespace xb
