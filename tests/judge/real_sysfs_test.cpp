// This machine's real /sys: every PCI function's ceiling is read without error and either stands
// on a PCIe link the kernel reports (and is no more than that link's own rate) or says why there
// is none; every network interface says where its ceiling comes from.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/first_line.hpp"
#include "judge/memory_ceiling.hpp"
#include "judge/nic_ceiling.hpp"
#include "judge/pcie_path.hpp"
#include "judge/pcie_rate.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

TEST(RealSysfs, EveryPciFunctionHasACeilingOrSaysWhyNot) {
  const fs::path devices = "/sys/bus/pci/devices";
  if (!fs::exists(devices)) GTEST_SKIP() << "no " << devices << " on this machine";
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(devices)) {
    const std::string address = entry.path().filename().string();
    ASSERT_TRUE(is_pci_address(address)) << address;
    const PciePath path = read_pcie_path("/sys", address);
    ASSERT_FALSE(path.ports.empty()) << address;
    EXPECT_EQ(path.ports.front().address, address);
    const Ceiling c = pcie_ceiling(path);
    EXPECT_FALSE(c.derivation.empty()) << address;
    const auto gts = parse_pcie_link_speed(read_first_line(entry.path() / "current_link_speed"));
    const std::string width = read_first_line(entry.path() / "current_link_width");
    if (c.bytes_per_second) {
      EXPECT_GT(*c.bytes_per_second, 0.0) << address;
      EXPECT_GE(*c.capable_bytes_per_second, *c.bytes_per_second) << address;
      if (gts && !width.empty() && std::stoi(width) > 0) {  // the device's own link bounds its path
        EXPECT_LE(*c.bytes_per_second, pcie_lane_bytes_per_second(*gts) * std::stoi(width)) << address;
      }
    } else {
      EXPECT_NE(c.derivation.find("no PCIe link reported for " + address), std::string::npos) << c.derivation;
    }
    ++seen;
  }
  EXPECT_GT(seen, 0);
}

TEST(RealSysfs, EveryInterfaceSaysWhereItsCeilingComesFrom) {
  for (const auto& n : nic_ceilings("/sys")) {
    EXPECT_NE(n.name, "lo");
    EXPECT_EQ(n.ceiling.derivation.rfind(n.name + ": ", 0), 0u) << n.ceiling.derivation;
    const std::string speed = read_first_line("/sys/class/net/" + n.name + "/speed");
    if (n.ceiling.bytes_per_second && n.pci_address.empty()) {
      EXPECT_DOUBLE_EQ(*n.ceiling.bytes_per_second, std::stod(speed) * 1e6 / 8) << n.name;
    }
  }
}

// Host memory: known from the firmware's table where this machine has one we can read (then above
// zero, with the modules named), else unknown and saying which file and why.
TEST(RealSysfs, HostMemorySaysItsCeilingOrWhyNot) {
  const fs::path table = "/sys/firmware/dmi/tables/DMI";
  const Ceiling c = host_memory_ceiling("/sys");
  EXPECT_EQ(c.derivation.rfind("host memory: ", 0), 0u) << c.derivation;
  if (c.bytes_per_second) {
    EXPECT_GT(*c.bytes_per_second, 0.0);
    EXPECT_GE(*c.capable_bytes_per_second, *c.bytes_per_second);
    EXPECT_TRUE(fs::exists(table));
    EXPECT_NE(c.derivation.find(" MT/s x "), std::string::npos) << c.derivation;
  } else if (!fs::exists(table)) {
    EXPECT_EQ(c.derivation, "host memory: no SMBIOS table at " + table.string() + " (firmware without one, as most VMs)");
  } else {
    EXPECT_NE(c.derivation.find(table.string()), std::string::npos) << c.derivation;  // unreadable, or no module with a speed
  }
}

}  // namespace
}  // namespace xb
