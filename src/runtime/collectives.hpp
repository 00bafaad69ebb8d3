#pragma once
// A group of ranks that runs collective operations on buffers it owns: what the coll job times.
// The group is the Runtime of its ranks (its barrier is the untimed line-up before an iteration),
// so the job times it with the one timed loop (runtime/timed_loop.hpp); an implementation holds the
// operations (MPI's, in mpi_collectives.*), as nccl-tests keeps one timing engine above every
// collective.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/runtime.hpp"

namespace xb {

enum class Collective { allreduce, iallreduce, reduce, barrier, bcast, reduce_scatter, allgather };

// The element type of the data reduced or moved (sharp_coll_test's -T).
enum class ElementType { int8, int16, int32, int64, float32, float64 };

// How the group's host buffers are allocated (sharp_coll_test's -H).
enum class HostAllocation { malloc, hugetlb, hugethp };

std::string_view to_string(Collective c);
std::optional<Collective> collective_from(std::string_view name);
std::string_view to_string(ElementType t);
std::size_t element_size(ElementType t);
std::string_view to_string(HostAllocation a);

// One operation's shape: `count` elements per rank's block (reduce_scatter: the block each rank
// receives; allgather: the block each rank sends), `outstanding` operations posted before waiting
// (iallreduce), the root of reduce and bcast.
struct CollectiveShape {
  Collective op = Collective::allreduce;
  ElementType type = ElementType::int32;
  std::size_t count = 0;
  unsigned outstanding = 1;
  int root = 0;
};

class CollectiveGroup : public Runtime {
 public:
  // Buffers for operations of `shape` (allocated once for the largest count a run will use, then
  // reused), filled with what check() expects: every rank contributes ones; bcast's root sends its
  // rank + 1; allgather's rank r sends r + 1.
  virtual void prepare(const CollectiveShape& shape) = 0;
  // One timed operation of the prepared shape (iallreduce: every outstanding operation posted,
  // then all waited for).
  virtual void run_once() = 0;
  // Whether the result of the operations run since prepare() holds what they must give; the
  // receive buffers are cleared and the operation run once more to see it. Empty: correct; else
  // what was wrong, naming the element.
  virtual std::string check() = 0;

  // Over every rank of the group, at every rank (and Runtime's max).
  virtual double sum(double mine) = 0;
  virtual double min(double mine) = 0;
};

}  // namespace xb
