#pragma once
// The order within a stream's copies when they go out as one submission that orders nothing
// within it (cudaMemcpyBatchAsync, a CUDA graph, aclrtMemcpyBatchAsync): which copy depends on
// which, and where a list must be cut so a Stream stays an in-order queue. Shared by the CUDA and
// Ascend backends' batch paths.
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "backends/device.hpp"

namespace xb {

// Whether `later` depends on `earlier` (it reads what `earlier` writes, or writes what `earlier`
// reads or writes). cudaMemcpyBatchAsync orders nothing within one batch, so the batch engine
// submits what it holds before it takes a copy that depends on one of them: a Stream stays an
// in-order queue.
bool copies_depend(const CopyOp& earlier, const CopyOp& later);

// The bytes a run of copies reads and writes, kept as merged address intervals, so whether the next
// copy depends on any of them (copies_depend against each) is answered in O(log n): a batch of many
// small fragments would otherwise cost a comparison with every copy before it.
class CopyFootprint {
 public:
  bool conflicts(const CopyOp& later) const;
  void add(const CopyOp& op);
  void clear();
  bool empty() const { return reads_.empty() && writes_.empty(); }

 private:
  // start -> end, disjoint, sorted; touching intervals are merged (the bytes covered are the same).
  using Intervals = std::map<std::uintptr_t, std::uintptr_t>;
  static bool overlaps(const Intervals& set, const void* p, std::size_t bytes);
  static void insert(Intervals& set, const void* p, std::size_t bytes);
  Intervals reads_, writes_;
};

// A list of copies cut into runs, in order, none of which holds a copy depending on an earlier one
// of the same run: each run may go out as one submission that orders nothing within it. Runs are
// [begin, end) indexes into `ops`; zero-byte copies depend on nothing.
struct CopyRun {
  std::size_t begin = 0;
  std::size_t end = 0;
};
std::vector<CopyRun> independent_runs(std::span<const CopyOp> ops);

}  // namespace xb
