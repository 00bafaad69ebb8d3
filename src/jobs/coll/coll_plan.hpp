#pragma once
// What a coll run measures: collective operations of a group of ranks, each timed over a size sweep
// as SHARP's MPI collectives tester does in its perf mode. Parsed by the sharp_coll_test dialect,
// checked by validate_coll_plan before MPI starts.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/collectives.hpp"

namespace xb {

struct CollPlan {
  std::vector<Collective> collectives{Collective::allreduce, Collective::barrier};  // run in this order
  std::uint64_t min_bytes = 4;    // per rank's block; powers of two, doubled up to max_bytes
  std::uint64_t max_bytes = 256;
  std::uint64_t iterations = 1000;  // timed per size
  std::uint64_t warmup = 100;       // untimed per size, first
  unsigned outstanding = 512;       // iallreduce: operations posted before waiting for them
  bool line_up = true;              // an untimed barrier before each timed iteration (not barrier's own)
  ElementType type = ElementType::int32;
  std::optional<int> root;  // reduce and bcast; none: reduce's is the last rank, bcast's rank 0
  std::string group = "world";  // how the ranks were grouped, as recorded in the result
  bool check = true;            // each size's result checked once after its timed iterations
  std::string net_device;  // sharp_coll_test -d ("mlx5_0:1", "eth0"), for judging its ceiling; "": none
};

inline constexpr unsigned kMaxOutstanding = 512;  // SHARP's tester's bound on -N
inline constexpr std::uint64_t kMaxCollBlock = std::uint64_t{1} << 30;

// PlanError naming the field and the rule: sizes not powers of two, MIN > MAX, beyond 1 GiB or below
// one element, no iterations, -N outside 1..512, no collective.
void validate_coll_plan(const CollPlan& plan);

// The element counts of a block, smallest first: MIN/e, doubled while not above MAX/e; an allgather's
// largest is capped to 512 MiB over the group, as SHARP's tester caps it.
std::vector<std::uint64_t> coll_counts(const CollPlan& plan, Collective op, int group_size);

// The bytes a size row names: the block for allreduce, iallreduce (one operation's), reduce and
// bcast; the block times the group's size for reduce_scatter (what each rank sends) and allgather
// (what each rank receives), as SHARP's tester prints them.
std::uint64_t coll_row_bytes(Collective op, std::uint64_t block_bytes, int group_size);

// The bytes a bandwidth counts: the row's bytes, times the operations outstanding for iallreduce.
std::uint64_t coll_moved_bytes(const CollPlan& plan, Collective op, std::uint64_t block_bytes, int group_size);

}  // namespace xb
