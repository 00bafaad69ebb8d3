#pragma once
// Where a thread's IOs go in its region and how long each is, one pass at a time: fixed-size blocks
// in sequence or in a permutation that visits each once a pass (block_order), so a random write
// leaves every byte written and verifiable; sizes drawn in a range (gdsio's -i MIN:MAX:STEP: MIN +
// k x STEP, the last cut to what is left); or independent random offsets on an alignment (gdsio's -a,
// -U), which may overlap and need not cover the region. The same seed gives the same offsets and
// sizes pass by pass (gdsio's -k): what lets a read-back verify a write of independent offsets.
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

// The pieces the plan's IO sizes cut `region_bytes` into (the io job's limit on the cut's memory).
std::uint64_t io_pieces(const IoPlan& plan, std::uint64_t region_bytes);

}  // namespace xb
