#pragma once
// A swept flag (core/sweep.hpp) as runs of a job: one plan per point, every plan checked before
// any runs (bad input leaves nothing), then run in order, each point's cases appended to one result.
// Measurement stays in the job: this only repeats it.
#include <cstdint>
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"

namespace xb {

// `base` with `set(plan, point)` applied for each point, each passed to `validate` (which throws).
template <class Plan, class Set, class Validate>
std::vector<Plan> sweep_plans(const Plan& base, const std::vector<std::uint64_t>& points, Set set, Validate validate) {
  std::vector<Plan> plans;
  plans.reserve(points.size());
  for (const std::uint64_t point : points) {
    Plan p = base;
    set(p, point);
    validate(p);
    plans.push_back(std::move(p));
  }
  return plans;
}

// The flag that repeats a run (--repetitions N), for compare's significance test (docs/report.md).
inline constexpr const char* kRepetitionsHelp =
    "run every case N times, in rounds (all points, then all again): repeated cases that compare pools "
    "and tests for significance (default 1)";

// `plans` repeated `rounds` times, round after round, so each round sees every point (a slow minute
// of the machine spreads over points rather than falling on one).
template <class Plan>
std::vector<Plan> in_rounds(const std::vector<Plan>& plans, std::uint64_t rounds) {
  std::vector<Plan> out;
  out.reserve(plans.size() * rounds);
  for (std::uint64_t r = 0; r < rounds; ++r) out.insert(out.end(), plans.begin(), plans.end());
  return out;
}

// Each plan run through the job's own run(plan, job), the cases in order.
template <class Plan>
std::vector<CaseResult> run_each(const std::vector<Plan>& plans, JobContext& job) {
  std::vector<CaseResult> cases;
  for (const Plan& p : plans) {
    std::vector<CaseResult> some = run(p, job);
    cases.insert(cases.end(), std::make_move_iterator(some.begin()), std::make_move_iterator(some.end()));
  }
  return cases;
}

}  // namespace xb
