// PCIe rates: sysfs's spellings parsed, and each generation's lane rate after line encoding, from
// the PCIe base specifications (8b/10b for Gen1–2, 128b/130b for Gen3–5, FLIT 242/256 for Gen6).
#include <gtest/gtest.h>

#include "judge/pcie_rate.hpp"

namespace xb {
namespace {

TEST(PcieRate, ParsesWhatKernelsWrite) {
  EXPECT_EQ(parse_pcie_link_speed("16.0 GT/s PCIe"), 16.0);
  EXPECT_EQ(parse_pcie_link_speed("8 GT/s"), 8.0);  // kernels before 4.19
  EXPECT_EQ(parse_pcie_link_speed("2.5 GT/s PCIe"), 2.5);
  EXPECT_EQ(parse_pcie_link_speed("64.0 GT/s PCIe"), 64.0);
  EXPECT_FALSE(parse_pcie_link_speed("Unknown"));
  EXPECT_FALSE(parse_pcie_link_speed("Unknown speed"));
  EXPECT_FALSE(parse_pcie_link_speed(""));
  EXPECT_FALSE(parse_pcie_link_speed("16.0"));
  EXPECT_FALSE(parse_pcie_link_speed("0 GT/s"));
  EXPECT_FALSE(parse_pcie_link_speed("-8 GT/s"));
}

TEST(PcieRate, EachGenerationsLaneAfterEncoding) {
  EXPECT_DOUBLE_EQ(pcie_lane_bytes_per_second(2.5), 250e6);
  EXPECT_DOUBLE_EQ(pcie_lane_bytes_per_second(5.0), 500e6);
  EXPECT_DOUBLE_EQ(pcie_lane_bytes_per_second(8.0), 8e9 / 8 * 128 / 130);
  EXPECT_DOUBLE_EQ(pcie_lane_bytes_per_second(16.0), 16e9 / 8 * 128 / 130);
  EXPECT_DOUBLE_EQ(pcie_lane_bytes_per_second(32.0), 32e9 / 8 * 128 / 130);
  EXPECT_DOUBLE_EQ(pcie_lane_bytes_per_second(64.0), 64e9 / 8 * 242 / 256);
  // The figures vendors print for x16: 15.75, 31.5 and 63.0 GB/s.
  EXPECT_NEAR(16 * pcie_lane_bytes_per_second(8.0) / 1e9, 15.75, 0.01);
  EXPECT_NEAR(16 * pcie_lane_bytes_per_second(16.0) / 1e9, 31.5, 0.02);
  EXPECT_NEAR(16 * pcie_lane_bytes_per_second(32.0) / 1e9, 63.0, 0.04);
  EXPECT_EQ(pcie_lane_bytes_per_second(10.0), 0.0);  // not a PCIe rate
}

TEST(PcieRate, NamesGenerationAndEncoding) {
  EXPECT_EQ(pcie_generation(2.5), 1);
  EXPECT_EQ(pcie_generation(32.0), 5);
  EXPECT_EQ(pcie_generation(10.0), 0);
  EXPECT_EQ(pcie_link_name(16.0, 16), "Gen4 x16");
  EXPECT_EQ(pcie_link_name(10.0, 4), "10 GT/s x4");
  EXPECT_EQ(pcie_encoding(5.0), "8b/10b");
  EXPECT_EQ(pcie_encoding(8.0), "128b/130b");
  EXPECT_EQ(pcie_encoding(64.0), "FLIT 242/256");
}

}  // namespace
}  // namespace xb
