// Storage ceilings in a synthetic sysfs: an NVMe drive's own PCIe link, a SATA disk's link against
// its HBA's, a virtio disk and a memory-backed one with their reasons, and the real disk under
// /var/tmp.
#include <gtest/gtest.h>

#include <fstream>

#include "storage/storage_inventory.hpp"
#include "judge/pcie_rate.hpp"
#include "judge/storage_ceiling.hpp"
#include "synthetic_sysfs.hpp"
#include "support/text_checks.hpp"

namespace xb {
namespace {

using test::FakePort;
using test::speed_text;
using test::SyntheticSysfs;

using test::has;

TEST(StorageCeiling, AnNvmeDrivesOwnLink) {
  SyntheticSysfs sys;
  const auto rp = sys.add(FakePort{"0000:00:01.0", speed_text(4), 4, speed_text(4), 4, PciePortType::root_port, false});
  const auto ctrl = sys.add(FakePort{"0000:02:00.0", speed_text(4), 4, speed_text(4), 4, PciePortType::endpoint, false}, rp);
  sys.add_disk(ctrl / "nvme" / "nvme0", "nvme0n1");
  const Ceiling c = storage_ceiling(sys.root(), "nvme0n1");
  ASSERT_TRUE(c.bytes_per_second) << c.derivation;
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 4 * pcie_lane_bytes_per_second(16.0));
  EXPECT_TRUE(has(c.derivation, "nvme0n1: controller 0000:02:00.0: PCIe Gen4 x4")) << c.derivation;
}

TEST(StorageCeiling, ASataDiskIsBoundByItsLink) {
  SyntheticSysfs sys;
  // AHCI integrated in the chipset: no PCIe link of its own; the SATA link decides.
  const auto ahci = sys.add(FakePort{"0000:00:1f.2", "", 0, "", 0, PciePortType::integrated_endpoint, false});
  sys.add_disk(ahci / "ata3" / "host2" / "target2:0:0" / "2:0:0:0", "sda");
  sys.add_sata_link(3, "6.0 Gbps");
  const Ceiling c = storage_ceiling(sys.root(), "sda");
  ASSERT_TRUE(c.bytes_per_second) << c.derivation;
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 600e6);
  EXPECT_TRUE(has(c.derivation, "sda: SATA link at 6.0 Gbps (8b/10b)")) << c.derivation;
  EXPECT_TRUE(has(c.derivation, "no PCIe link reported for 0000:00:1f.2")) << c.derivation;
}

TEST(StorageCeiling, TheNarrowerOfSataLinkAndHbaLinkDecides) {
  SyntheticSysfs sys;
  const auto rp = sys.add(FakePort{"0000:00:1c.0", speed_text(2), 1, speed_text(2), 1, PciePortType::root_port, false});
  const auto hba = sys.add(FakePort{"0000:05:00.0", speed_text(2), 1, speed_text(2), 1, PciePortType::endpoint, false}, rp);
  sys.add_disk(hba / "ata1" / "host0" / "target0:0:0" / "0:0:0:0", "sdb");
  sys.add_sata_link(1, "6.0 Gbps");
  const Ceiling c = storage_ceiling(sys.root(), "sdb");
  EXPECT_DOUBLE_EQ(*c.bytes_per_second, 500e6);  // a Gen2 x1 HBA under a 6 Gbps disk
}

TEST(StorageCeiling, AnUnlinkedSataPortSaysSo) {
  SyntheticSysfs sys;
  const auto ahci = sys.add(FakePort{"0000:00:17.0", "", 0, "", 0, PciePortType::integrated_endpoint, false});
  sys.add_disk(ahci / "ata2" / "host1" / "target1:0:0" / "1:0:0:0", "sdc");
  sys.add_sata_link(2, "<unknown>");
  const Ceiling c = storage_ceiling(sys.root(), "sdc");
  EXPECT_FALSE(c.bytes_per_second);
  EXPECT_TRUE(has(c.derivation, "sdc: SATA link speed not reported (<unknown>)")) << c.derivation;
}

TEST(StorageCeiling, VirtualAndMemoryDisksSayWhyThereIsNone) {
  SyntheticSysfs sys;
  const auto virtio = sys.add(FakePort{"0000:00:02.0", "", 0, "", 0, PciePortType::endpoint, false});
  sys.add_disk(virtio / "virtio1", "vda");
  sys.add_disk(sys.root() / "devices" / "virtual", "ram0");
  const Ceiling vda = storage_ceiling(sys.root(), "vda");
  EXPECT_FALSE(vda.bytes_per_second);
  EXPECT_TRUE(has(vda.derivation, "vda: controller 0000:00:02.0: no PCIe link reported")) << vda.derivation;
  const Ceiling ram = storage_ceiling(sys.root(), "ram0");
  EXPECT_FALSE(ram.bytes_per_second);
  EXPECT_EQ(ram.derivation, "ram0: no PCI controller above it (a virtual or memory-backed disk)");
  const Ceiling none = storage_ceiling(sys.root(), "nvme9n1");
  EXPECT_TRUE(has(none.derivation, "nvme9n1: not in ")) << none.derivation;
}

// LVM and md: the volume is set against the disks in its slaves/ (partitions resolve to their disk).
TEST(StorageCeiling, AStackedVolumeIsSetAgainstTheDisksUnderIt) {
  namespace fs = std::filesystem;
  SyntheticSysfs sys;
  const auto rp = sys.add(FakePort{"0000:00:01.0", speed_text(4), 4, speed_text(4), 4, PciePortType::root_port, false});
  const auto a = sys.add(FakePort{"0000:02:00.0", speed_text(4), 4, speed_text(4), 4, PciePortType::endpoint, false}, rp);
  const auto rp2 = sys.add(FakePort{"0000:00:02.0", speed_text(3), 4, speed_text(3), 4, PciePortType::root_port, false});
  const auto b = sys.add(FakePort{"0000:03:00.0", speed_text(3), 4, speed_text(3), 4, PciePortType::endpoint, false}, rp2);
  const auto n0 = sys.add_disk(a / "nvme" / "nvme0", "nvme0n1");
  const auto n1 = sys.add_disk(b / "nvme" / "nvme1", "nvme1n1");
  const auto part = n0 / "nvme0n1p2";  // a partition: its own directory under the disk's, with `partition`
  fs::create_directories(part);
  std::ofstream(part / "partition") << "2\n";
  const auto dm = sys.add_disk(sys.root() / "devices" / "virtual", "dm-0");
  fs::create_directories(dm / "slaves");
  fs::create_symlink(fs::relative(part, dm / "slaves"), dm / "slaves" / "nvme0n1p2");
  const auto md = sys.add_disk(sys.root() / "devices" / "virtual", "md0");
  fs::create_directories(md / "slaves");
  fs::create_symlink(fs::relative(n0, md / "slaves"), md / "slaves" / "nvme0n1");
  fs::create_symlink(fs::relative(n1, md / "slaves"), md / "slaves" / "nvme1n1");

  const Ceiling one = storage_ceiling(sys.root(), "dm-0");
  ASSERT_TRUE(one.bytes_per_second) << one.derivation;
  EXPECT_DOUBLE_EQ(*one.bytes_per_second, 4 * pcie_lane_bytes_per_second(16.0));
  EXPECT_TRUE(has(one.derivation, "dm-0 is on nvme0n1: nvme0n1: controller 0000:02:00.0")) << one.derivation;

  const Ceiling two = storage_ceiling(sys.root(), "md0");
  ASSERT_TRUE(two.bytes_per_second) << two.derivation;
  EXPECT_DOUBLE_EQ(*two.bytes_per_second, 4 * pcie_lane_bytes_per_second(16.0) + 4 * pcie_lane_bytes_per_second(8.0));
  EXPECT_TRUE(has(two.derivation, "md0 is on 2 disks (nvme0n1, nvme1n1), the sum (an upper bound")) << two.derivation;
}

TEST(StorageCeiling, AVolumeOverADiskWithoutALinkIsUnknown) {
  namespace fs = std::filesystem;
  SyntheticSysfs sys;
  const auto rp = sys.add(FakePort{"0000:00:01.0", speed_text(4), 4, speed_text(4), 4, PciePortType::root_port, false});
  const auto a = sys.add(FakePort{"0000:02:00.0", speed_text(4), 4, speed_text(4), 4, PciePortType::endpoint, false}, rp);
  const auto n0 = sys.add_disk(a / "nvme" / "nvme0", "nvme0n1");
  const auto ram = sys.add_disk(sys.root() / "devices" / "virtual", "ram0");
  const auto md = sys.add_disk(sys.root() / "devices" / "virtual", "md1");
  fs::create_directories(md / "slaves");
  fs::create_symlink(fs::relative(n0, md / "slaves"), md / "slaves" / "nvme0n1");
  fs::create_symlink(fs::relative(ram, md / "slaves"), md / "slaves" / "ram0");
  const Ceiling c = storage_ceiling(sys.root(), "md1");
  EXPECT_FALSE(c.bytes_per_second) << c.derivation;  // a sum is known only where every part is
  EXPECT_TRUE(has(c.derivation, "ram0: no PCI controller above it")) << c.derivation;
}

TEST(StorageCeiling, TheRealDiskUnderVarTmpSaysWhereItsCeilingComesFrom) {
  const StorageInfo s = inspect_storage("/var/tmp");
  if (s.block_device.empty()) GTEST_SKIP() << "/var/tmp is on no block device here (" << s.fs_type << ")";
  const Ceiling c = storage_ceiling("/sys", s.block_device);
  EXPECT_EQ(c.derivation.rfind(s.block_device + ": ", 0), 0u) << c.derivation;
  if (c.bytes_per_second) {
    EXPECT_GT(*c.bytes_per_second, 0.0);
  }
}

}  // namespace
}  // namespace xb
