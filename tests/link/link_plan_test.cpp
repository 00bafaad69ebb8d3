// The link plan on its own: the size sweep, the bandwidth unit, -M's names and the rules bad input
// breaks (each a UsageError naming the flag).
#include <gtest/gtest.h>

#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/size.hpp"
#include "jobs/link/link_plan.hpp"
#include "support/job_helpers.hpp"

namespace xb {
namespace {

using test::error_of;

LinkPlan sweep(std::uint64_t min, std::uint64_t max, std::uint64_t step) {
  LinkPlan p;
  p.min_bytes = min;
  p.max_bytes = max;
  p.step = step;
  return p;
}

TEST(LinkPlan, SizesFollowTheFactorUpToMax) {
  EXPECT_EQ(link_sizes(sweep(4, 64, 2)), (std::vector<std::uint64_t>{4, 8, 16, 32, 64}));
  EXPECT_EQ(link_sizes(sweep(3, 100, 4)), (std::vector<std::uint64_t>{3, 12, 48})) << "MAX only when landed on";
  EXPECT_EQ(link_sizes(sweep(64 << 20, 64 << 20, 2)), (std::vector<std::uint64_t>{64 << 20}));
  const LinkPlan defaults;
  const auto all = link_sizes(defaults);
  ASSERT_EQ(all.size(), 24u) << "4 B to 32 MiB doubling: sharp_coll_test's default sweep";
  EXPECT_EQ(all.front(), 4u);
  EXPECT_EQ(all.back(), 32u << 20);
  // A factor that would overflow 64 bits stops the sweep instead of wrapping.
  const auto big = link_sizes(sweep(1, std::uint64_t{1} << 50, std::uint64_t{1} << 40));
  EXPECT_EQ(big, (std::vector<std::uint64_t>{1, std::uint64_t{1} << 40}));
}

TEST(LinkPlan, BandwidthIsDecimalGigabitsPerSecondOfTheAverage) {
  // The seed's three examples: 64 MiB at each average latency.
  EXPECT_NEAR(link_bandwidth_gbps(67108864, 1510.23), 355.49, 0.005);
  EXPECT_NEAR(link_bandwidth_gbps(67108864, 1489.44), 360.45, 0.005);
  EXPECT_NEAR(link_bandwidth_gbps(67108864, 1409.41), 380.92, 0.005);
  EXPECT_DOUBLE_EQ(link_bandwidth_gbps(1000, 8), 1.0);  // 8000 bits in 8 us = 1 Gb/s
  EXPECT_EQ(link_bandwidth_gbps(1000, 0), 0.0);
}

TEST(LinkPlan, MemoryNames) {
  EXPECT_EQ(parse_link_memory("host", "-M"), std::make_pair(RegionPlace::host, RegionPlace::host));
  EXPECT_EQ(parse_link_memory("cuda", "-M"), std::make_pair(RegionPlace::device, RegionPlace::device));
  EXPECT_EQ(parse_link_memory("null:host", "-M"), std::make_pair(RegionPlace::null, RegionPlace::host));
  EXPECT_EQ(parse_link_memory("host:cuda", "-M"), std::make_pair(RegionPlace::host, RegionPlace::device));
  for (const char* bad : {"", "gpu", "host:", ":host", "host:cuda:null", "HOST"}) {
    const std::string message = error_of([&] { parse_link_memory(bad, "--mem"); });
    EXPECT_NE(message.find("--mem"), std::string::npos) << bad << ": " << message;
    EXPECT_NE(message.find("host, cuda, null"), std::string::npos) << message;
    EXPECT_THROW(parse_link_memory(bad, "-M"), UsageError) << bad;
  }
  EXPECT_EQ(link_memory_name(RegionPlace::device), "cuda");
}

TEST(LinkPlan, BadPlansNameTheFlagAndTheRule) {
  struct Case {
    LinkPlan plan;
    std::string flag, rule;
  };
  LinkPlan null_check;
  null_check.src = RegionPlace::null;
  null_check.check = true;
  LinkPlan null_dst_check;
  null_dst_check.dst = RegionPlace::null;
  null_dst_check.check = true;
  LinkPlan device_pingpong;
  device_pingpong.pingpong = true;
  device_pingpong.dst = RegionPlace::device;
  LinkPlan null_src_pingpong;
  null_src_pingpong.pingpong = true;
  null_src_pingpong.src = RegionPlace::null;
  LinkPlan no_iters;
  no_iters.iterations = 0;
  LinkPlan bad_transport;
  bad_transport.transport = "carrier-pigeon";
  const std::vector<Case> cases = {
      {sweep(8, 4, 2), "-s", "MIN must not exceed MAX"},
      {sweep(4, 8, 1), "--step", "at least 2"},
      {sweep(4, 8, 0), "--step", "at least 2"},
      {sweep(0, 8, 2), "-s", "at least 1 byte"},
      {no_iters, "-i", "at least one iteration"},
      {null_check, "--check", "never touched by the CPU"},
      {null_dst_check, "--check", "never touched by the CPU"},
      {bad_transport, "--transport", "expected one of"},
      {device_pingpong, "--pingpong", "both ends must be host memory (-M host)"},
      {null_src_pingpong, "--pingpong", "both ends must be host memory (-M host)"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of([&] { validate_link_plan(c.plan); });
    EXPECT_EQ(message.rfind(c.flag + " ", 0) == 0 || message.rfind(c.flag + ":", 0) == 0, true) << message;
    EXPECT_NE(message.find(c.rule), std::string::npos) << message;
    EXPECT_THROW(validate_link_plan(c.plan), UsageError);
  }
  // A dialect's flag names appear instead.
  const FlagWords sharp = native_flag_words().with({{"link.step", "-f"}});
  EXPECT_EQ(error_of([&] { validate_link_plan(sweep(4, 8, 1)); }, sharp).rfind("-f 1:", 0), 0u);
  // The job names the field, not a flag: the rule reads the same whoever words it.
  try {
    validate_link_plan(sweep(4, 8, 1));
  } catch (const PlanError& e) {
    EXPECT_EQ(e.text().fields().front(), "link.step");
    EXPECT_EQ(e.text().rule().rfind("<link.step> 1:", 0), 0u) << e.text().rule();
  }
  EXPECT_NO_THROW(validate_link_plan(LinkPlan{}));
  LinkPlan host_pingpong;
  host_pingpong.pingpong = true;
  EXPECT_NO_THROW(validate_link_plan(host_pingpong));
}

// Sizes beyond memory are refused from the plan alone, before anything is allocated (a test that ran
// the binary instead would, with the check broken, really try to allocate them).
TEST(LinkPlan, SizesBeyondMemoryAreRefusedNamingTheSizeFlag) {
  const std::uint64_t half = available_memory_bytes() / 2 + (std::uint64_t{1} << 30);
  LinkPlan p = sweep(4, half, 2);  // loopback, host to host: two buffers of the largest size
  const std::string e = error_of([&] { check_link_memory(p, true); });
  EXPECT_EQ(e.rfind("-s " + format_size(half) + ": the largest size needs ", 0), 0u) << e;
  EXPECT_NE(e.find("(2 buffer(s) of "), std::string::npos) << e;
  const FlagWords sharp = native_flag_words().with({{"link.size", "--size"}});
  EXPECT_EQ(error_of([&] { check_link_memory(p, true); }, sharp).rfind("--size ", 0), 0u);
  // A limit of this machine, not a usage error: exit 3, and the survey waives it.
  EXPECT_THROW(check_link_memory(p, true), MachineLimit);
  // One buffer of it fits: a remote peer holds the destination; null memory is never counted.
  p.peer = SocketAddress{"10.0.0.2", 20001};
  EXPECT_NO_THROW(check_link_memory(p, true));
  p.peer.reset();
  p.dst = RegionPlace::null;
  EXPECT_NO_THROW(check_link_memory(p, true));
  // Device memory counts where it is host RAM (the cpu backend), with its staging where it is not.
  p.src = RegionPlace::device;
  p.dst = RegionPlace::host;
  EXPECT_THROW(check_link_memory(p, true), MachineLimit);
  p.peer = SocketAddress{"10.0.0.2", 20001};
  EXPECT_NO_THROW(check_link_memory(p, false));  // staging alone: one buffer
  EXPECT_NO_THROW(check_link_memory(sweep(4, 32 << 20, 2), true));
  // --pingpong holds one buffer more: the answers' memory.
  LinkPlan pingpong = sweep(4, half, 2);
  pingpong.peer = SocketAddress{"10.0.0.2", 20001};
  EXPECT_NO_THROW(check_link_memory(pingpong, true));
  pingpong.pingpong = true;
  EXPECT_NE(error_of([&] { check_link_memory(pingpong, true); }).find("(2 buffer(s) of "), std::string::npos);
}

}  // namespace
}  // namespace xb
