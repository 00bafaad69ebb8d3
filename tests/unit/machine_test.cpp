// core/machine: what /proc/meminfo says is available, and the one rule every job applies to it
// before allocating (at most 90% of it), at its edges.
#include <gtest/gtest.h>

#include "core/machine.hpp"

namespace xb {
namespace {

TEST(Machine, AvailableMemoryIsWhatProcMeminfoSays) {
  const std::uint64_t available = available_memory_bytes();
  EXPECT_GT(available, 0u);
  EXPECT_EQ(available % 1024, 0u);  // MemAvailable is in KiB
}

TEST(Machine, ARunFitsInNinetyPercentOfTheMemoryAvailableAndNoMore) {
  EXPECT_TRUE(fits_in_memory(0, 1000));
  EXPECT_TRUE(fits_in_memory(900, 1000));
  EXPECT_FALSE(fits_in_memory(901, 1000));
  EXPECT_FALSE(fits_in_memory(1000, 1000));
  EXPECT_FALSE(fits_in_memory(1, 0));
  EXPECT_TRUE(fits_in_memory(0.9 * 24e9, 24e9));
}

}  // namespace
}  // namespace xb
