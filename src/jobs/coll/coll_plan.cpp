#include "jobs/coll/coll_plan.hpp"

#include <fmt/format.h>

#include <bit>

#include "core/error.hpp"
#include "core/plan_error.hpp"

namespace xb {

void validate_coll_plan(const CollPlan& p) {
  if (p.collectives.empty()) throw PlanError(fmt::format("{}: no collective to run", flag("coll.collectives")));
  const std::uint64_t e = element_size(p.type);
  if (!std::has_single_bit(p.min_bytes) || !std::has_single_bit(p.max_bytes)) {
    throw PlanError(
        fmt::format("{} {}:{}: the sizes must be powers of two", flag("coll.size"), p.min_bytes, p.max_bytes));
  }
  if (p.min_bytes > p.max_bytes) {
    throw PlanError(fmt::format("{} {}:{}: MIN is above MAX", flag("coll.size"), p.min_bytes, p.max_bytes));
  }
  if (p.max_bytes > kMaxCollBlock) {
    throw PlanError(fmt::format("{} {}: at most {} bytes per rank", flag("coll.size"), p.max_bytes, kMaxCollBlock));
  }
  if (p.max_bytes < e) {
    throw PlanError(fmt::format("{} {}: smaller than one {}-byte element", flag("coll.size"), p.max_bytes, e));
  }
  if (p.iterations == 0) throw PlanError(fmt::format("{} 0: at least one iteration", flag("coll.iterations")));
  if (p.outstanding == 0 || p.outstanding > kMaxOutstanding) {
    throw PlanError(fmt::format("{} {}: from 1 to {} operations outstanding", flag("coll.outstanding"), p.outstanding,
                                kMaxOutstanding));
  }
}

std::vector<std::uint64_t> coll_counts(const CollPlan& p, Collective op, int group_size) {
  if (op == Collective::barrier) return {0};
  const std::uint64_t e = element_size(p.type);
  std::uint64_t max = p.max_bytes;
  const std::uint64_t cap = std::uint64_t{512} << 20;
  const auto n = static_cast<std::uint64_t>(group_size);
  if (op == Collective::allgather && max * n > cap) max = cap / n;
  std::vector<std::uint64_t> counts;
  for (std::uint64_t c = std::max<std::uint64_t>(1, p.min_bytes / e); c * e <= max; c *= 2) counts.push_back(c);
  return counts;
}

std::uint64_t coll_row_bytes(Collective op, std::uint64_t block_bytes, int group_size) {
  const bool per_rank = op == Collective::reduce_scatter || op == Collective::allgather;
  return per_rank ? block_bytes * static_cast<std::uint64_t>(group_size) : block_bytes;
}

std::uint64_t coll_moved_bytes(const CollPlan& p, Collective op, std::uint64_t block_bytes, int group_size) {
  const std::uint64_t row = coll_row_bytes(op, block_bytes, group_size);
  return op == Collective::iallreduce ? row * p.outstanding : row;
}

}  // namespace xb
