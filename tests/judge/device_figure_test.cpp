// copy and p2p figures against devices with PCIe links (the cpu backend with its devices given PCI
// addresses in a synthetic sysfs tree): copy sums its devices' paths; a p2p pair is bounded by
// the narrower device, both ways at once by twice that; the matrix by the narrowest device;
// across nodes p2p has no path kind.
#include <gtest/gtest.h>

#include "jobs/copy/copy_config.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "judge/copy_figure.hpp"
#include "judge/p2p_figure.hpp"
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
  TwoDevices() {
    const auto rp0 = sys.add(FakePort{"0000:00:01.0", speed_text(4), 16, speed_text(4), 16, PciePortType::root_port, false});
    sys.add(FakePort{"0000:01:00.0", speed_text(4), 16, speed_text(4), 16, PciePortType::endpoint, false}, rp0);
    const auto rp1 = sys.add(FakePort{"0000:00:02.0", speed_text(4), 8, speed_text(4), 8, PciePortType::root_port, false});
    sys.add(FakePort{"0000:02:00.0", speed_text(4), 8, speed_text(4), 8, PciePortType::endpoint, false}, rp1);
    test::CpuWrap wrap;
    wrap.pci_address = [](int index) { return index == 0 ? "0000:01:00.0" : "0000:02:00.0"; };
    backend = test::make_wrapped_cpu_backend(std::move(wrap));
  }
};

CaseResult p2p_case(const std::string& direction, std::optional<int> matrix_devices, const std::string& scope = "node") {
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
  CaseResult c;
  c.job = "p2p";
  c.config = config;
  return c;
}

TEST(DeviceFigure, CopySumsItsDevicesPaths) {
  TwoDevices t;
  CopyConfig config;
  config.backend = "cpu";
  config.direction = "h2d";
  config.block_bytes = 4 << 20;
  config.devices = 2;
  CaseResult c;
  c.config = config;
  const JudgedFigure f = copy_figure(c, *t.backend, t.sys.root(), "");
  EXPECT_EQ(f.facts.path, "copy.h2d");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 24 * kGen4Lane);
  EXPECT_TRUE(has(f.ceiling.derivation, "the sum over 2 devices")) << f.ceiling.derivation;
  EXPECT_TRUE(has(f.ceiling.derivation, "cpu::device::1: PCIe Gen4 x8")) << f.ceiling.derivation;
}

TEST(DeviceFigure, AP2pPairIsBoundByTheNarrowerDeviceAndBothWaysByTwiceThat) {
  TwoDevices t;
  JudgedFigure f = p2p_figure(p2p_case("unidirectional", std::nullopt), *t.backend, t.sys.root(), "");
  EXPECT_EQ(f.facts.path, "p2p");
  EXPECT_EQ(f.facts.metric, "bandwidth");
  EXPECT_EQ(f.facts.block_bytes, 64u << 20);
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 8 * kGen4Lane);
  f = p2p_figure(p2p_case("bidirectional", std::nullopt), *t.backend, t.sys.root(), "");
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 16 * kGen4Lane);
  EXPECT_TRUE(has(f.ceiling.derivation, "both ways at once, twice (PCIe is full duplex)")) << f.ceiling.derivation;
}

TEST(DeviceFigure, TheMatrixJudgesItsLowestCellAgainstTheNarrowestDevice) {
  TwoDevices t;
  const JudgedFigure f = p2p_figure(p2p_case("unidirectional", 2), *t.backend, t.sys.root(), "");
  EXPECT_EQ(f.facts.case_metric, "bandwidth_min");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 8 * kGen4Lane);
}

TEST(DeviceFigure, ADeviceWithoutALinkLeavesThePairUnknownAndAcrossNodesHasNoPathKind) {
  TwoDevices t;
  const auto plain = test::make_wrapped_cpu_backend({});  // the arenas: no PCI address
  const JudgedFigure f = p2p_figure(p2p_case("unidirectional", std::nullopt), *plain, t.sys.root(), "");
  EXPECT_FALSE(f.ceiling.bytes_per_second);
  EXPECT_TRUE(has(f.ceiling.derivation, "has no PCI link")) << f.ceiling.derivation;
  const JudgedFigure across = p2p_figure(p2p_case("unidirectional", std::nullopt, "nodes"), *t.backend, t.sys.root(), "");
  EXPECT_EQ(across.facts.path, "");
  EXPECT_EQ(across.ceiling.derivation, "p2p across nodes is judged by the fleet: `xferbench fleet` (docs/fleet.md)");
}

}  // namespace
}  // namespace xb
