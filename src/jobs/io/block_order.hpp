#pragma once
// The order in which a thread visits its region's blocks: in sequence, or a pseudo-random permutation
// visiting each exactly once a pass (fio's random map), so a random write leaves every block written
// and verifiable. Computed, not stored (O(1) memory however large the region): a 4-round Feistel
// network over the next even power of two, cycle-walked into [0, n).
#include <cstdint>

namespace xb {

class BlockOrder {
 public:
  BlockOrder(std::uint64_t blocks, bool random, std::uint64_t seed);
  // The block visited k-th in a pass, k < blocks. A bijection of [0, blocks).
  std::uint64_t at(std::uint64_t k) const noexcept;

 private:
  std::uint64_t feistel(std::uint64_t x) const noexcept;
  std::uint64_t blocks_;
  bool random_;
  std::uint64_t seed_;
  unsigned half_bits_ = 1;
};

}  // namespace xb
