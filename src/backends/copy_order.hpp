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

// Copies a stream holds back for one submission (a batch engine): a copy that depends on a held
// one conflicts, and the caller submits what is held before holding it.
class HeldCopies {
 public:
  bool conflicts(const CopyOp& op) const { return footprint_.conflicts(op); }
  void hold(const CopyOp& op) {
    held_.push_back(op);
    footprint_.add(op);
  }
  bool empty() const { return held_.empty(); }
  // What is held, in order; nothing is held after.
  std::vector<CopyOp> take() {
    footprint_.clear();
    std::vector<CopyOp> ops;
    ops.swap(held_);
    return ops;
  }

 private:
  std::vector<CopyOp> held_;
  CopyFootprint footprint_;  // what held_ reads and writes
};

}  // namespace xb
