#include "jobs/io/block_order.hpp"

#include "core/splitmix.hpp"

namespace xb {

BlockOrder::BlockOrder(std::uint64_t blocks, bool random, std::uint64_t seed)
    : blocks_(blocks), random_(random), seed_(seed) {
  // The smallest 2^(2h) >= blocks: at most 4x the domain, so cycle-walking takes < 4 steps on average.
  while (half_bits_ < 32 && (std::uint64_t{1} << (2 * half_bits_)) < blocks) ++half_bits_;
}

std::uint64_t BlockOrder::feistel(std::uint64_t x) const noexcept {
  const std::uint64_t mask = (std::uint64_t{1} << half_bits_) - 1;
  std::uint64_t left = x >> half_bits_, right = x & mask;
  for (std::uint64_t round = 0; round < 4; ++round) {
    const std::uint64_t next = left ^ (splitmix64(right ^ (seed_ + round * 0x632be59bd9b4e019ull)) & mask);
    left = right;
    right = next;
  }
  return (left << half_bits_) | right;
}

std::uint64_t BlockOrder::at(std::uint64_t k) const noexcept {
  if (!random_) return k;
  std::uint64_t x = k;
  do x = feistel(x);
  while (x >= blocks_);  // x stays inside [0, 2^(2h)), so this ends on a value of [0, blocks)
  return x;
}

}  // namespace xb
