// Sweeps (core/sweep.hpp): one point, a list in its order, a doubling range, a range with a factor
// (MAX itself only where a power of the factor lands on it), counts; and every malformed form a
// UsageError naming the flag and the rule. Then the runs of a sweep (cli/sweep_runs.hpp): a plan
// per point, in rounds, each step's progress line saying where the run stands.
#include "core/sweep.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "cli/sweep_runs.hpp"
#include "core/error.hpp"

namespace xb {
namespace {

using Points = std::vector<std::uint64_t>;

// A plan of one point whose run opens a progress step, as every job does.
struct PointPlan {
  std::uint64_t size = 0;
};
std::vector<CaseResult> run(const PointPlan& p, JobContext& job) {
  const ProgressStep step(job.progress, fmt::format("copy: {}…", p.size));
  CaseResult c;
  c.name = std::to_string(p.size);
  return {c};
}

// Records what a run's steps said.
struct Recorded final : ProgressLine {
  std::vector<std::string> begun;
  int ended = 0;
  void begin(std::string text) override { begun.push_back(std::move(text)); }
  void end() override { ++ended; }
};

TEST(Sweep, OnePointAListARangeAndAFactor) {
  EXPECT_EQ(parse_size_sweep("4M", "-s"), (Points{4u << 20}));
  EXPECT_EQ(parse_size_sweep("1M,4K,64K", "-s"), (Points{1u << 20, 4096, 65536}));
  EXPECT_EQ(parse_size_sweep("4K:64K", "-s"), (Points{4096, 8192, 16384, 32768, 65536}));
  EXPECT_EQ(parse_size_sweep("4K:1M:4", "-s"), (Points{4096, 16384, 65536, 262144, 1048576}));
  EXPECT_EQ(parse_size_sweep("4K:100K:4", "-s"), (Points{4096, 16384, 65536}));  // 256K would pass MAX
  EXPECT_EQ(parse_size_sweep("8K:8K", "-s"), (Points{8192}));
  EXPECT_EQ(parse_count_sweep("1:64:4", "--qd", 1, 1024), (Points{1, 4, 16, 64}));
  EXPECT_EQ(parse_count_sweep("32,1,8", "--qd", 1, 1024), (Points{32, 1, 8}));
  // The top of the size range: no overflow past kMaxSize.
  EXPECT_EQ(parse_size_sweep("512T:1P", "-s").back(), std::uint64_t{1} << 50);
}

// The time left at a point is the pace so far times the points still to run, this one included:
// 2 points in 20 s of 8, about 60 s left (the clock is the test's: no timing is asserted).
TEST(Sweep, TheTimeLeftCountsEveryPointFromTheOneStartingNow) {
  Recorded shown;
  auto t = std::chrono::steady_clock::time_point{};
  SweepProgress where(&shown, 8, [&t] { return t; });
  where.at_point(0);
  where.begin("copy: 4K");
  t += std::chrono::seconds(20);
  where.at_point(2);
  where.begin("copy: 16K");
  t += std::chrono::seconds(5);
  where.at_point(7);
  where.begin("copy: 512K");
  EXPECT_EQ(shown.begun, (std::vector<std::string>{"[1/8] copy: 4K", "[3/8, about 60 s left] copy: 16K",
                                                   "[8/8, about 3 s left] copy: 512K"}));
}

TEST(Sweep, MalformedSweepsNameTheFlagAndTheRule) {
  const struct {
    std::string text, expected;
  } cases[] = {
      {"1M,2M:4M", "-s 1M,2M:4M: either a list (A,B,C) or a range (MIN:MAX[:FACTOR]), not both"},
      {"1M,,2M", "-s 1M,,2M: an empty point in the list"},
      {"8M:1M", "-s 8M:1M: the minimum is larger than the maximum (MIN:MAX)"},
      {"1K:1M:2:3", "-s 1K:1M:2:3: a range is MIN:MAX or MIN:MAX:FACTOR"},
      {"1K:1M:1", "-s FACTOR 1: expected a whole number from 2 to 1024"},
      {"4Q", "-s 4Q"},
      {"", "-s"},
  };
  for (const auto& c : cases) {
    try {
      parse_size_sweep(c.text, "-s");
      ADD_FAILURE() << c.text << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << c.text << ": " << e.what();
    }
  }
  std::string many = "1K";
  for (int i = 0; i < 64; ++i) many += ",1K";
  EXPECT_THROW(parse_size_sweep(many, "-s"), UsageError);  // 65 points
  many.resize(many.size() - 3);
  EXPECT_EQ(parse_size_sweep(many, "-s").size(), kMaxSweepPoints);
  EXPECT_THROW(parse_count_sweep("0:8", "--qd", 1, 1024), UsageError);
  EXPECT_THROW(parse_count_sweep("1,2000", "--qd", 1, 1024), UsageError);
}

TEST(Sweep, APointPerPlanInRoundsEachStepSayingWhereTheRunStands) {
  const auto plans = in_rounds(sweep_plans(PointPlan{}, Points{4, 8}, [](PointPlan& p, std::uint64_t s) { p.size = s; },
                                           [](const PointPlan& p) { EXPECT_GT(p.size, 0u); }),
                               2);
  Recorded shown;
  JobContext job{.progress = &shown};
  const auto cases = run_each(plans, job);
  std::vector<std::string> names;
  for (const auto& c : cases) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"4", "8", "4", "8"}));
  ASSERT_EQ(shown.begun.size(), 4u);
  EXPECT_EQ(shown.begun[0], "[1/4] copy: 4…");
  EXPECT_EQ(shown.begun[1].rfind("[2/4, about ", 0), 0u) << shown.begun[1];
  EXPECT_NE(shown.begun[3].find(" s left] copy: 8…"), std::string::npos) << shown.begun[3];
  EXPECT_EQ(shown.ended, 4);
  // One point: the job's own words, nothing added.
  Recorded alone;
  JobContext one{.progress = &alone};
  run_each(std::vector<PointPlan>{PointPlan{16}}, one);
  EXPECT_EQ(alone.begun, (std::vector<std::string>{"copy: 16…"}));
  // A bad point stops the sweep before anything runs.
  EXPECT_THROW(sweep_plans(PointPlan{}, Points{4, 0}, [](PointPlan& p, std::uint64_t s) { p.size = s; },
                           [](const PointPlan& p) {
                             if (p.size == 0) throw UsageError("-s 0: no");
                           }),
               UsageError);
}

}  // namespace
}  // namespace xb
