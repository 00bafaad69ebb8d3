#include "jobs/coll/coll_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "jobs/coll/coll_config.hpp"
#include "jobs/link/link_plan.hpp"
#include "runtime/timed_loop.hpp"

namespace xb {
namespace {

// The root of reduce (the last rank unless given) and of bcast (rank 0 unless given), within the
// group: a root beyond the group is the default one.
int root_of(const CollPlan& plan, Collective op, int group_size) {
  if (plan.root && *plan.root >= 0 && *plan.root < group_size) return *plan.root;
  return op == Collective::reduce ? group_size - 1 : 0;
}

struct Timing {
  std::vector<double> samples;  // this rank's, us
  double avg = 0, min = 0, max = 0;  // over the group
};

Timing time_operations(const CollPlan& plan, CollectiveGroup& group, Collective op) {
  // barrier has no barrier before it: it would time itself twice.
  const bool line_up = plan.line_up && op != Collective::barrier;
  Timing t;
  t.samples = run_timed_loop({.warmup = plan.warmup, .iterations = plan.iterations, .submit_time = false},
                             line_up ? &group : nullptr, [&] { group.run_once(); }, [] {})
                  .complete_us;
  double sum = 0, fastest = std::numeric_limits<double>::infinity(), slowest = 0;
  for (const double us : t.samples) {
    sum += us;
    fastest = std::min(fastest, us);
    slowest = std::max(slowest, us);
  }
  t.avg = group.sum(sum / static_cast<double>(plan.iterations)) / group.size();
  t.min = group.min(fastest);
  t.max = group.max(slowest);
  return t;
}

CaseResult make_case(const CollPlan& plan, const CollectiveShape& shape, int group_size, Timing t) {
  const std::uint64_t block = shape.count * element_size(shape.type);
  const std::uint64_t row = coll_row_bytes(shape.op, block, group_size);
  const std::uint64_t moved = coll_moved_bytes(plan, shape.op, block, group_size);
  const std::string op(to_string(shape.op));
  CaseResult c;
  c.job = "coll";
  c.name = op;
  c.title = shape.op == Collective::barrier
                ? fmt::format("barrier of {} ranks", group_size)
                : fmt::format("{} of {} bytes per rank over {} ranks", op, block, group_size);
  c.labels = {{"collective", op}, {"size", std::to_string(row)}, {"ranks", std::to_string(group_size)}};
  const bool rooted = shape.op == Collective::reduce || shape.op == Collective::bcast;
  c.config = CollConfig{
      .collective = op, .size = row, .block_bytes = block, .count = shape.count,
      .datatype = std::string(to_string(shape.type)), .ranks = group_size, .group = plan.group,
      .iterations = plan.iterations, .warmup = plan.warmup, .line_up = plan.line_up && shape.op != Collective::barrier,
      .outstanding = shape.op == Collective::iallreduce ? std::optional(shape.outstanding) : std::nullopt,
      .root = rooted ? std::optional(shape.root) : std::nullopt, .checked = plan.check,
      .net_device = plan.net_device.empty() ? std::nullopt : std::optional(plan.net_device)};
  c.series.push_back(make_series("latency", "us", std::move(t.samples)));
  c.metrics = {
      {"latency_avg", t.avg, "us", "mean over ranks of each rank's mean"},
      {"latency_min", t.min, "us", "fastest iteration of any rank"},
      {"latency_max", t.max, "us", "slowest iteration of any rank"},
      {"iterations", static_cast<double>(plan.iterations), "count", "timed operations per rank"},
  };
  if (shape.op != Collective::barrier) {
    c.metrics.push_back({"bandwidth", link_bandwidth_gbps(moved, t.avg), "Gb/s",
                         shape.op == Collective::iallreduce ? "size * outstanding * 8 / latency_avg / 1e3"
                                                            : "size * 8 / latency_avg / 1e3"});
  }
  return c;
}

}  // namespace

std::vector<CaseResult> run(const CollPlan& plan, JobContext& ctx) {
  CollectiveGroup& group = ctx.need_collectives("coll");
  const int n = group.size();
  std::vector<CaseResult> cases;
  for (const Collective op : plan.collectives) {
    for (const std::uint64_t count : coll_counts(plan, op, n)) {
      const CollectiveShape shape{.op = op, .type = plan.type, .count = count,
                                  .outstanding = op == Collective::iallreduce ? plan.outstanding : 1,
                                  .root = root_of(plan, op, n)};
      group.prepare(shape);
      Timing t = time_operations(plan, group, op);
      std::string wrong = plan.check ? group.check() : std::string();
      // Every rank learns how many ranks saw a wrong result; each one's own words stay its own.
      const double wrong_ranks = plan.check ? group.sum(wrong.empty() ? 0.0 : 1.0) : 0.0;
      if (group.rank() != 0) continue;
      CaseResult c = make_case(plan, shape, n, std::move(t));
      if (wrong_ranks > 0) {
        c.status = CaseStatus::failed;
        c.status_reason = wrong.empty() ? fmt::format("{}: the result was wrong at {} rank(s) of the group",
                                                      to_string(op), static_cast<int>(wrong_ranks))
                                        : wrong;
      }
      ctx.emit(c);
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace xb
