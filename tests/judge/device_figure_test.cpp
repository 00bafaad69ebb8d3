// copy and p2p figures against devices with PCIe links (the cpu backend with its devices given PCI
// addresses in a synthetic sysfs tree): copy sums its devices' paths; a p2p pair is bounded by
// the narrower device, both ways at once by twice that; the matrix by the narrowest device;
// across nodes p2p has no path kind. Devices that report peer links (NVLink through a switch or
// straight, as the CUDA backend reads them from NVML) are bounded by those instead, and a link that
// is down warns.
#include <gtest/gtest.h>

#include <functional>

#include "jobs/copy/copy_config.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "judge/copy_figure.hpp"
#include "judge/p2p_figure.hpp"
#include "judge/peer_link_ceiling.hpp"
#include "judge/pcie_rate.hpp"
#include "support/wrapped_cpu_backend.hpp"
#include "synthetic_sysfs.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::FakePort;
using test::speed_text;
using test::SyntheticSysfs;

using test::has;

const double kGen4Lane = pcie_lane_bytes_per_second(16.0);

// Device 0 on a Gen4 x16 link, device 1 on Gen4 x8, each under its own root port.
struct TwoDevices {
  SyntheticSysfs sys;
  std::unique_ptr<Backend> backend;
  // `peer_links` (optional) sets each device's reported peer links, as a CUDA backend's probe does.
  explicit TwoDevices(std::function<void(int, DeviceInfo&)> peer_links = {}) {
    const auto rp0 = sys.add(FakePort{"0000:00:01.0", speed_text(4), 16, speed_text(4), 16, PciePortType::root_port, false});
    sys.add(FakePort{"0000:01:00.0", speed_text(4), 16, speed_text(4), 16, PciePortType::endpoint, false}, rp0);
    const auto rp1 = sys.add(FakePort{"0000:00:02.0", speed_text(4), 8, speed_text(4), 8, PciePortType::root_port, false});
    sys.add(FakePort{"0000:02:00.0", speed_text(4), 8, speed_text(4), 8, PciePortType::endpoint, false}, rp1);
    test::CpuWrap wrap;
    wrap.pci_address = [](int index) { return index == 0 ? "0000:01:00.0" : "0000:02:00.0"; };
    wrap.info = std::move(peer_links);
    backend = test::make_wrapped_cpu_backend(std::move(wrap));
  }
};

// The devices as the job records them (each opened once, as the job has them open).
std::vector<DeviceInfo> infos_of(Backend& backend, int devices) {
  std::vector<DeviceInfo> infos;
  for (int d = 0; d < devices; ++d) infos.push_back(backend.open_device(d)->info());
  return infos;
}

CaseResult p2p_case(Backend& backend, const std::string& direction, std::optional<int> matrix_devices,
                    const std::string& scope = "node") {
  P2pConfig config;
  config.backend = "cpu";
  config.direction = direction;
  config.size_bytes = 64 << 20;
  config.scope = scope;
  if (matrix_devices) {
    config.devices = matrix_devices;
  } else {
    config.from = "cpu::device::0";
    config.to = "cpu::device::1";
  }
  config.device_info = infos_of(backend, matrix_devices.value_or(2));
  CaseResult c;
  c.job = "p2p";
  c.config = config;
  return c;
}

// A copy case of `devices` devices from `first`, recording them as the copy job does.
CaseResult copy_case(Backend& backend, const std::string& direction, int devices, int first = 0) {
  CopyConfig config;
  config.backend = "cpu";
  config.direction = direction;
  config.block_bytes = 4 << 20;
  config.devices = devices;
  config.first_device = first;
  std::vector<DeviceInfo> infos;
  for (int d = first; d < first + devices; ++d) infos.push_back(backend.open_device(d)->info());
  config.device_info = infos;
  config.device_memory_in_host_ram = backend.capabilities().device_memory_in_host_ram;
  CaseResult c;
  c.config = config;
  return c;
}

TEST(DeviceFigure, CopySumsItsDevicesPaths) {
  TwoDevices t;
  const CaseResult c = copy_case(*t.backend, "h2d", 2);
  const JudgedFigure f = copy_figure(c, t.sys.root(), "");
  EXPECT_EQ(f.facts.path, "copy.h2d");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 24 * kGen4Lane);
  EXPECT_TRUE(has(f.ceiling.derivation, "the sum over 2 devices")) << f.ceiling.derivation;
  EXPECT_TRUE(has(f.ceiling.derivation, "cpu::device::1: PCIe Gen4 x8")) << f.ceiling.derivation;
}

// A copy from device 1 alone: its own link (x8), named as device 1, not as the backend's first.
TEST(DeviceFigure, CopyFromALaterDeviceIsBoundByThatDevicesPathAndNamesIt) {
  TwoDevices t;
  const CaseResult c = copy_case(*t.backend, "d2h", 1, 1);
  const JudgedFigure f = copy_figure(c, t.sys.root(), "");
  EXPECT_EQ(f.facts.path, "copy.d2h");
  EXPECT_EQ(f.facts.device, t.backend->open_device(1)->info().name);
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 8 * kGen4Lane);
  EXPECT_TRUE(f.ceiling.derivation.starts_with("cpu::device::1: PCIe Gen4 x8")) << f.ceiling.derivation;
  EXPECT_FALSE(has(f.ceiling.derivation, "device::0")) << f.ceiling.derivation;
}

TEST(DeviceFigure, AP2pPairIsBoundByTheNarrowerDeviceAndBothWaysByTwiceThat) {
  TwoDevices t;
  JudgedFigure f = p2p_figure(p2p_case(*t.backend, "unidirectional", std::nullopt), t.sys.root(), "");
  EXPECT_EQ(f.facts.path, "p2p");
  EXPECT_EQ(f.facts.metric, "bandwidth");
  EXPECT_EQ(f.facts.block_bytes, 64u << 20);
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 8 * kGen4Lane);
  f = p2p_figure(p2p_case(*t.backend, "bidirectional", std::nullopt), t.sys.root(), "");
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 16 * kGen4Lane);
  EXPECT_TRUE(has(f.ceiling.derivation, "both ways at once, twice (the links are full duplex)")) << f.ceiling.derivation;
}

TEST(DeviceFigure, TheMatrixJudgesItsLowestCellAgainstTheNarrowestDevice) {
  TwoDevices t;
  const JudgedFigure f = p2p_figure(p2p_case(*t.backend, "unidirectional", 2), t.sys.root(), "");
  EXPECT_EQ(f.facts.case_metric, "bandwidth_min");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 8 * kGen4Lane);
}

TEST(DeviceFigure, ADeviceWithoutALinkLeavesThePairUnknownAndAcrossNodesHasNoPathKind) {
  TwoDevices t;
  const auto plain = test::make_wrapped_cpu_backend({});  // the arenas: no PCI address
  const JudgedFigure f = p2p_figure(p2p_case(*plain, "unidirectional", std::nullopt), t.sys.root(), "");
  EXPECT_FALSE(f.ceiling.bytes_per_second);
  EXPECT_TRUE(has(f.ceiling.derivation, "has no PCI link")) << f.ceiling.derivation;
  const JudgedFigure across = p2p_figure(p2p_case(*t.backend, "unidirectional", std::nullopt, "nodes"), t.sys.root(), "");
  EXPECT_EQ(across.facts.path, "");
  EXPECT_EQ(across.ceiling.derivation, "p2p across nodes is judged by the fleet: `xferbench fleet` (docs/fleet.md)");
}

// The judge reads the devices from the case only (it never opens one): a case that records none
// (written before jobs recorded them) has no ceiling, saying why.
TEST(DeviceFigure, ACaseWithoutItsDevicesHasNoCeilingAndSaysWhy) {
  TwoDevices t;
  CaseResult p2p = p2p_case(*t.backend, "unidirectional", std::nullopt);
  auto config = p2p.config.get<P2pConfig>();
  config.device_info.reset();
  p2p.config = config;
  const JudgedFigure f = p2p_figure(p2p, t.sys.root(), "");
  EXPECT_FALSE(f.ceiling.bytes_per_second);
  EXPECT_EQ(f.ceiling.derivation, "the case does not record device 0 (written by an older xferbench)");
  CopyConfig copy;
  copy.backend = "cpu";
  copy.direction = "h2d";
  copy.devices = 2;
  CaseResult c;
  c.config = copy;
  const JudgedFigure g = copy_figure(c, t.sys.root(), "");
  EXPECT_EQ(g.facts.path, "copy.h2d");
  EXPECT_FALSE(g.ceiling.bytes_per_second);
  EXPECT_EQ(g.ceiling.derivation, "the case does not record its devices (written by an older xferbench)");
}

constexpr double kNvlink4 = 26.5625e9;  // one NVLink 4.0 link, one direction, as NVML reports H100's

PeerLink to_switch(int links) { return PeerLink{"NVLink 4.0", "", true, links, kNvlink4}; }

TEST(DeviceFigure, DevicesOnOneNvswitchFabricAreBoundByTheFewerOfTheirLinksNotByPcie) {
  TwoDevices t([](int index, DeviceInfo& info) {
    info.peer_links = {to_switch(index == 0 ? 18 : 12)};
    info.peer_links_down = index == 0 ? 0 : 6;
  });
  JudgedFigure f = p2p_figure(p2p_case(*t.backend, "unidirectional", std::nullopt), t.sys.root(), "");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 12 * kNvlink4);
  EXPECT_TRUE(has(f.ceiling.derivation, "through the switch fabric: 0000:01:00.0 has 18 × NVLink 4.0 at 26.562 GB/s"))
      << f.ceiling.derivation;
  ASSERT_EQ(f.ceiling.warnings.size(), 1u);
  EXPECT_EQ(f.ceiling.warnings[0], "0000:02:00.0: 6 of its 18 peer links are not active");
  f = p2p_figure(p2p_case(*t.backend, "bidirectional", 2), t.sys.root(), "");
  EXPECT_EQ(f.facts.case_metric, "bandwidth_min");
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 24 * kNvlink4);
  EXPECT_EQ(f.ceiling.warnings.size(), 1u);  // the matrix's pairs share the one warning, not one each
}

TEST(DeviceFigure, LinksStraightBetweenTwoDevicesCountFromEitherEndsReport) {
  // Device 0 reports 4 links to device 1 (and 2 to a third device, not in this pair); device 1 none.
  TwoDevices t([](int index, DeviceInfo& info) {
    if (index == 0) {
      info.peer_links = {PeerLink{"NVLink 2.0", "0000:02:00.0", false, 4, 25e9},
                         PeerLink{"NVLink 2.0", "0000:03:00.0", false, 2, 25e9}};
    }
  });
  const JudgedFigure f = p2p_figure(p2p_case(*t.backend, "unidirectional", std::nullopt), t.sys.root(), "");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 4 * 25e9);
  EXPECT_TRUE(has(f.ceiling.derivation, "4 × NVLink 2.0 at 25.000 GB/s straight between 0000:01:00.0 and 0000:02:00.0"))
      << f.ceiling.derivation;
  EXPECT_TRUE(f.ceiling.warnings.empty());
  // The other way round the same links carry it (device 1 reports nothing; device 0's report counts).
  DeviceInfo zero = t.backend->open_device(0)->info(), one = t.backend->open_device(1)->info();
  const auto back = peer_link_ceiling(one, zero);
  ASSERT_TRUE(back && back->bytes_per_second);
  EXPECT_DOUBLE_EQ(*back->bytes_per_second, 4 * 25e9);
  EXPECT_TRUE(has(back->derivation, "(as 0000:01:00.0 reports them)")) << back->derivation;
}

TEST(DeviceFigure, StraightLinksAndASwitchTogetherAddAndNoSharedLinkFallsBackToPcie) {
  DeviceInfo a, b;
  a.pci_address = "0000:01:00.0";
  b.pci_address = "0000:02:00.0";
  a.peer_links = {PeerLink{"NVLink 3.0", b.pci_address, false, 2, 25e9}, to_switch(4)};
  b.peer_links = {to_switch(6)};
  const auto both = peer_link_ceiling(a, b);
  ASSERT_TRUE(both && both->bytes_per_second);
  EXPECT_DOUBLE_EQ(*both->bytes_per_second, 2 * 25e9 + 4 * kNvlink4);
  // A switch only one end reaches carries nothing between them: the straight links alone, and the
  // derivation names no switch.
  b.peer_links.clear();
  const auto straight = peer_link_ceiling(a, b);
  ASSERT_TRUE(straight && straight->bytes_per_second);
  EXPECT_DOUBLE_EQ(*straight->bytes_per_second, 2 * 25e9);
  EXPECT_FALSE(has(straight->derivation, "switch")) << straight->derivation;
  // A device with links to neither the other nor a switch they share: PCIe, the note said.
  b.peer_links.clear();
  b.peer_links_note = "no NVLink on this device";
  a.peer_links = {to_switch(4)};
  EXPECT_FALSE(peer_link_ceiling(a, b));
  Ceiling pcie_a, pcie_b;
  pcie_a.bytes_per_second = 16 * kGen4Lane;
  pcie_a.derivation = "a's PCIe";
  pcie_b.bytes_per_second = 8 * kGen4Lane;
  pcie_b.derivation = "b's PCIe";
  const Ceiling pcie = device_pair_ceiling(a, pcie_a, b, pcie_b);
  ASSERT_TRUE(pcie.bytes_per_second);
  EXPECT_DOUBLE_EQ(*pcie.bytes_per_second, 8 * kGen4Lane);
  EXPECT_TRUE(has(pcie.derivation, "(0000:02:00.0: no NVLink on this device)")) << pcie.derivation;
  // An end without a PCI address cannot be named by the other's straight links.
  a.peer_links = {PeerLink{"NVLink 3.0", "", false, 2, 25e9}};
  b.pci_address.clear();
  EXPECT_FALSE(peer_link_ceiling(a, b));
  // Either PCIe path unknown: the pair is unknown.
  pcie_b.bytes_per_second.reset();
  EXPECT_FALSE(device_pair_ceiling(a, pcie_a, b, pcie_b).bytes_per_second);
}

}  // namespace
}  // namespace xb
