// The storage inventory on real file systems: a disk (the temporary directory under /var/tmp) and
// tmpfs (/dev/shm), checked against the kernel's own files.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "storage/storage_inventory.hpp"
#include "core/topology_inventory.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

TEST(StorageInventory, ADiskDirectoryHasItsBlockDevice) {
  test::TempDir dir;
  const StorageInfo s = inspect_storage(dir.path());
  EXPECT_EQ(s.directory, fs::canonical(dir.path()));
  EXPECT_FALSE(s.fs_type.empty());
  EXPECT_FALSE(s.mount_point.empty());
  EXPECT_EQ(dir.path().string().rfind(s.mount_point, 0), 0u) << s.mount_point;
  EXPECT_GT(s.capacity_bytes, 0u);
  EXPECT_LE(s.free_bytes, s.capacity_bytes);
  if (s.block_device.empty()) GTEST_SKIP() << "/var/tmp is not on a block device here (" << s.fs_type << ")";
  // The disk is a real entry of /sys/block with the queue settings reported.
  ASSERT_TRUE(fs::exists("/sys/block/" + s.block_device)) << s.block_device;
  std::ifstream lbs("/sys/block/" + s.block_device + "/queue/logical_block_size");
  std::uint64_t expected = 0;
  lbs >> expected;
  EXPECT_EQ(s.logical_block_bytes, expected);
  EXPECT_TRUE(s.logical_block_bytes == 512 || s.logical_block_bytes == 4096) << s.logical_block_bytes;
  ASSERT_TRUE(s.rotational.has_value());
}

TEST(StorageInventory, TmpfsHasNoBlockDevice) {
  struct statfs sf {};
  ASSERT_EQ(statfs("/dev/shm", &sf), 0);
  const StorageInfo s = inspect_storage("/dev/shm");
  EXPECT_EQ(s.fs_type, "tmpfs");
  EXPECT_EQ(s.block_device, "");
  EXPECT_FALSE(s.rotational.has_value());
}

TEST(StorageInventory, AMissingDirectoryIsAnErrorNamingIt) {
  try {
    inspect_storage("/nonexistent-xferbench-dir");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-xferbench-dir"), std::string::npos) << e.what();
  }
}

TEST(TopologyInventory, CountsMatchTheKernel) {
  const TopologyInfo t = inspect_topology();
  ASSERT_FALSE(t.numa_nodes.empty());
  EXPECT_EQ(t.pus, static_cast<int>(std::thread::hardware_concurrency()));
  int pus = 0;
  std::uint64_t memory = 0;
  for (const auto& n : t.numa_nodes) {
    pus += n.pus;
    memory += n.memory_bytes;
    EXPECT_FALSE(n.cpus.empty());
  }
  EXPECT_EQ(pus, t.pus);
  EXPECT_EQ(memory, t.memory_bytes);
}

}  // namespace
}  // namespace xb
