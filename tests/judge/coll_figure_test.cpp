// A coll case's figure (issue 17 item 3): path kind coll, the row's size, and the ceiling of the
// network device -d named: an interface's speed or an RDMA port's rate, times 1 for allreduce (each
// rank's data across its port once at best), n/(n-1) for allgather and reduce_scatter; unknown,
// said so, without a device.
#include <gtest/gtest.h>

#include "jobs/coll/coll_config.hpp"
#include "judge/coll_figure.hpp"
#include "support/text_checks.hpp"
#include "synthetic_sysfs.hpp"

namespace xb {
namespace {

using test::has;

CaseResult coll_case(const std::string& op, int ranks, std::optional<std::string> device) {
  CollConfig config;
  config.collective = op;
  config.size = 4 << 20;
  config.ranks = ranks;
  config.net_device = std::move(device);
  CaseResult c;
  c.job = "coll";
  c.config = config;
  return c;
}

TEST(CollFigure, TheNamedDevicesRateTimesWhatTheCollectiveLetsAPortCarry) {
  test::SyntheticSysfs sys;
  sys.add_nic("eth9", "100000");  // 100 Gb/s
  sys.add_rdma_port("mlx5_0", 1, "200 Gb/sec (4X HDR)");

  JudgedFigure f = coll_figure(coll_case("allreduce", 4, "eth9"), sys.root(), "srv");
  EXPECT_EQ(f.facts.path, "coll");
  EXPECT_EQ(f.facts.metric, "bandwidth");
  EXPECT_EQ(f.facts.block_bytes, 4u << 20);
  EXPECT_EQ(f.facts.server, "srv");
  EXPECT_EQ(f.facts.device, "eth9");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 100e9 / 8);
  EXPECT_TRUE(has(f.ceiling.derivation, "allreduce of 4 ranks: each rank's data across its port once at best"))
      << f.ceiling.derivation;

  f = coll_figure(coll_case("allgather", 4, "eth9"), sys.root(), "");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 100e9 / 8 * 4 / 3);
  EXPECT_TRUE(has(f.ceiling.derivation, "allgather of 4 ranks: 4/3 x the port")) << f.ceiling.derivation;

  f = coll_figure(coll_case("reduce_scatter", 2, "mlx5_0:1"), sys.root(), "");
  ASSERT_TRUE(f.ceiling.bytes_per_second) << f.ceiling.derivation;
  EXPECT_DOUBLE_EQ(*f.ceiling.bytes_per_second, 200e9 / 8 * 2);
}

TEST(CollFigure, WithoutANamedDeviceTheCeilingIsUnknownAndSaysWhy) {
  test::SyntheticSysfs sys;
  // Absent, or recorded empty (-d given nothing): the same.
  for (const auto& device : {std::optional<std::string>(), std::optional<std::string>("")}) {
    const JudgedFigure f = coll_figure(coll_case("allreduce", 2, device), sys.root(), "");
    EXPECT_EQ(f.facts.path, "coll");
    EXPECT_FALSE(f.ceiling.bytes_per_second);
    EXPECT_TRUE(has(f.ceiling.derivation, "no network device named for the collectives (sharp_coll_test -d DEV[:PORT]"))
        << f.ceiling.derivation;
  }
}

}  // namespace
}  // namespace xb
