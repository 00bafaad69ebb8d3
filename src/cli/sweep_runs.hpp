#pragma once
// A swept flag (core/sweep.hpp) as runs of a job: one plan per point, every plan checked before
// any runs (bad input leaves nothing), then run in order into one result. Measurement stays in the job.
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/progress_line.hpp"
#include "core/result.hpp"
#include "core/size.hpp"
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

// `plans` repeated `rounds` times, round after round, so each round sees every point (a slow minute
// of the machine spreads over points rather than falling on one).
template <class Plan>
std::vector<Plan> in_rounds(const std::vector<Plan>& plans, std::uint64_t rounds) {
  std::vector<Plan> out;
  out.reserve(plans.size() * rounds);
  for (std::uint64_t r = 0; r < rounds; ++r) out.insert(out.end(), plans.begin(), plans.end());
  return out;
}

// The progress line of a run of several points: each step after where the run stands, "[3/8, about
// 40 s left] copy: 16K …" (the time left from the second point on, at the pace so far).
class SweepProgress final : public ProgressLine {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;  // a test's own clock
  SweepProgress(ProgressLine* shown, std::size_t total, Clock now = &std::chrono::steady_clock::now)
      : shown_(shown), total_(total), now_(std::move(now)), started_(now_()) {}
  void at_point(std::size_t index) { index_ = index; }
  void begin(std::string text) override {
    if (shown_ == nullptr) return;
    std::string where = fmt::format("[{}/{}", index_ + 1, total_);
    if (index_ > 0) {
      const auto per_point = (now_() - started_) / index_;
      const auto left = std::chrono::duration_cast<std::chrono::seconds>(per_point * (total_ - index_)).count();
      where += fmt::format(", about {} s left", left);
    }
    shown_->begin(where + "] " + text);
  }
  void end() override {
    if (shown_ != nullptr) shown_->end();
  }
  void moved(std::uint64_t bytes) override {
    if (shown_ != nullptr) shown_->moved(bytes);
  }
  bool shows_rate() const override { return shown_ != nullptr && shown_->shows_rate(); }

 private:
  ProgressLine* shown_;
  std::size_t total_;
  std::size_t index_ = 0;
  Clock now_;
  std::chrono::steady_clock::time_point started_;
};

// Each plan through the job's own run(plan, job), the cases in order, the steps shown as above.
template <class Plan>
std::vector<CaseResult> run_each(const std::vector<Plan>& plans, JobContext& job) {
  std::vector<CaseResult> cases;
  SweepProgress where(job.progress, plans.size());
  JobContext each = job;
  if (plans.size() > 1) each.progress = &where;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    where.at_point(i);
    std::vector<CaseResult> some = run(plans[i], each);
    cases.insert(cases.end(), std::make_move_iterator(some.begin()), std::make_move_iterator(some.end()));
  }
  return cases;
}

}  // namespace xb
