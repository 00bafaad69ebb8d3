// The gate's generation arithmetic (cuda_gate_word.hpp), on the host: what the wait kernel
// compares, including across the word's wrap-around.
#include "backends/cuda/cuda_gate_word.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace xb::cuda {
namespace {

TEST(CudaGateWord, AWaitEndsOnceItsGenerationIsPublishedAndNotBefore) {
  EXPECT_FALSE(gate_released(0, 1));  // made closed: the first window's waits hold
  EXPECT_TRUE(gate_released(1, 1));
  EXPECT_TRUE(gate_released(2, 1));   // a later open releases an older window's wait
  EXPECT_FALSE(gate_released(6, 7));
}

TEST(CudaGateWord, TheComparisonSurvivesTheWordWrappingAround) {
  const std::uint32_t last = 0xffffffffu;
  EXPECT_FALSE(gate_released(last - 1, last));
  EXPECT_TRUE(gate_released(last, last));
  // After the wrap the gate skips 0 (the gave-up word's "none"): generation 1 follows 0xffffffff.
  EXPECT_FALSE(gate_released(last, 1));
  EXPECT_TRUE(gate_released(1, last));
  EXPECT_TRUE(gate_released(5, last - 3));
}

}  // namespace
}  // namespace xb::cuda
