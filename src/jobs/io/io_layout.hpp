#pragma once
// Where a thread's IOs go in its region, and how long each is: the offsets and lengths of one pass.
// - Fixed-size IOs (the default): the region cut into blocks of the IO size, visited in sequence or
//   in a pseudo-random permutation in which every block comes exactly once per pass (block_order),
//   so a random write run leaves every byte written and verifiable.
// - Sizes drawn in a range (gdsio's -i MIN:MAX:STEP): the region cut, in sequence, into IOs whose
//   sizes are MIN + k x STEP with k drawn from the seed (the last one cut to what is left); visited in
//   sequence, or those pieces in a permutation.
// - Independent random offsets (gdsio's -a ALIGN and -U): each IO's offset drawn on its own, a
//   multiple of the alignment (1: any byte), so IOs may repeat or overlap and a pass need not cover
//   the region; as many IOs per pass as the region has pieces.
// The same seed gives the same offsets and sizes, pass by pass (gdsio's -k), which is what lets a
// read-back verify exactly what a write of independent offsets wrote.
#include <cstdint>
#include <optional>
#include <vector>

#include "jobs/io/block_order.hpp"
#include "jobs/io/io_plan.hpp"

namespace xb {

struct IoExtent {
  std::uint64_t offset = 0;  // from the start of the region
  std::uint64_t length = 0;
  bool read = true;          // a mixed run's IO reads; otherwise it writes
};

class IoLayout {
 public:
  // `region_bytes`: the thread's region (a whole number of the plan's largest IO); `seed`: the
  // thread's order seed.
  IoLayout(const IoPlan& plan, std::uint64_t region_bytes, std::uint64_t seed);

  std::uint64_t ios_per_pass() const { return ios_; }
  // Whether each pass touches every byte of the region exactly once (not with independent offsets).
  bool covers_region() const { return alignment_ == 0; }
  // The k-th IO (k < ios_per_pass()) of pass `pass`. Cheap; passes are asked for in order.
  IoExtent at(std::uint64_t pass, std::uint64_t k);

 private:
  std::uint64_t draw_length(std::uint64_t index) const;  // the index-th drawn size (only when min < max)

  std::uint64_t region_, max_, min_, step_, alignment_, seed_;
  bool random_, write_;
  std::optional<unsigned> read_percent_;
  std::uint64_t ios_ = 0;
  std::vector<std::uint64_t> starts_;  // drawn sizes: where each piece starts, and the region's end
  std::uint64_t order_pass_ = 0;
  std::optional<BlockOrder> order_;
};

// The pieces a region of `region_bytes` is cut into with the plan's IO sizes (the io job's limit on
// the memory the cut takes is checked against it).
std::uint64_t io_pieces(const IoPlan& plan, std::uint64_t region_bytes);

}  // namespace xb
