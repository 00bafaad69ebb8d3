// The one job contract (jobs/job_context.hpp) on real jobs of the cpu backend: what a job hands to
// ctx.on_case is what it returns, in the same order; each job says what it does through
// ctx.progress and ends its step, also when it throws; a job that needs a backend (or ranks) and
// is given none names itself instead of crashing.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "jobs/copy/copy_job.hpp"
#include "jobs/io/io_job.hpp"
#include "jobs/job_context.hpp"
#include "jobs/kv/kv_job.hpp"
#include "jobs/link/link_job.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_remote.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"

namespace xb {
namespace {

// Records every step a job opens and whether each was ended.
class RecordingProgress final : public ProgressLine {
 public:
  void begin(std::string text) override {
    EXPECT_FALSE(open_) << "a step began inside another: " << text;
    open_ = true;
    steps.push_back(std::move(text));
  }
  void end() override {
    EXPECT_TRUE(open_) << "a step ended that never began";
    open_ = false;
    ++ended;
  }
  bool open() const { return open_; }

  std::vector<std::string> steps;
  int ended = 0;

 private:
  bool open_ = false;
};

// What run() returned and what on_case saw, case by case (name, status, the figures' JSON).
struct Seen {
  std::vector<CaseResult> emitted;
  RecordingProgress progress;
};

template <typename Plan>
std::vector<CaseResult> run_recorded(const Plan& plan, Backend* backend, Seen& seen) {
  JobContext job{.backend = backend,
                 .on_case = [&seen](const CaseResult& c) { seen.emitted.push_back(c); },
                 .progress = &seen.progress};
  return run(plan, job);
}

void expect_emitted_as_returned(const std::vector<CaseResult>& returned, const Seen& seen, const std::string& step) {
  ASSERT_FALSE(returned.empty());
  ASSERT_EQ(seen.emitted.size(), returned.size()) << "every case goes to on_case";
  for (std::size_t i = 0; i < returned.size(); ++i) {
    SCOPED_TRACE(returned[i].name);
    EXPECT_EQ(seen.emitted[i].name, returned[i].name) << "in the order returned";
    EXPECT_EQ(seen.emitted[i].status, returned[i].status);
    EXPECT_EQ(seen.emitted[i].config, returned[i].config);
    EXPECT_EQ(seen.emitted[i].metrics.size(), returned[i].metrics.size());
  }
  ASSERT_EQ(seen.progress.steps.size(), 1u);
  EXPECT_EQ(seen.progress.steps[0].rfind(step, 0), 0u) << seen.progress.steps[0];
  EXPECT_EQ(seen.progress.ended, 1);
}

TEST(JobContract, CopyHandsOverWhatItReturns) {
  const auto cpu = make_cpu_backend();
  CopyPlan p;
  p.backend = "cpu";
  p.direction = CopyDirection::h2d;
  p.block_bytes = 64 << 10;
  p.blocks = 4;
  p.iterations = 3;
  p.warmup = 1;
  p.devices = 2;
  p.streams = 2;
  Seen seen;
  const auto cases = run_recorded(p, cpu.get(), seen);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].ranks.size(), 2u) << "the job forked its own ranks, one per device";
  expect_emitted_as_returned(cases, seen, "copy: h2d on 2 device(s)");
}

TEST(JobContract, IoAndKvHandOverWhatTheyReturn) {
  test::TempDir dir;
  IoPlan w;
  w.directory = dir.path() / "io";
  std::filesystem::create_directories(w.directory);
  w.pattern = IoPattern::write;
  w.threads = 2;
  w.file_bytes = 256 << 10;
  w.io_bytes = 16 << 10;
  w.engine = "psync";
  w.buffered = true;
  Seen io;
  expect_emitted_as_returned(run_recorded(w, nullptr, io), io, "io: write 16K with psync, 2 thread(s)");

  KvPlan k;
  k.op = KvOp::dump;
  k.store = dir.path() / "kv";
  std::filesystem::create_directories(k.store);
  k.blocks = 8;
  k.block_bytes = 16 << 10;
  k.threads = 2;
  k.buffered = true;
  Seen kv;
  expect_emitted_as_returned(run_recorded(k, nullptr, kv), kv, "kv: dump 8 blocks");
}

TEST(JobContract, P2pHandsOverEveryPairAndTheMatrices) {
  const auto cpu = make_cpu_backend();
  P2pPlan p;
  p.all_pairs = true;
  p.devices = 2;
  p.bidirectional = true;
  p.size = 64 << 10;
  p.executions = 3;
  p.warmup = 1;
  validate_p2p_plan(p, *cpu);
  Seen seen;
  const auto cases = run_recorded(p, cpu.get(), seen);
  // Two ordered pairs one way, one pair both ways, then a matrix per direction kind.
  ASSERT_EQ(cases.size(), 5u);
  EXPECT_EQ(cases.back().name.rfind("p2p_matrix_", 0), 0u) << cases.back().name;
  expect_emitted_as_returned(cases, seen, "p2p: 64K x 3");
}

TEST(JobContract, LinkHandsOverEachSizeAsItIsMeasured) {
  const auto cpu = make_cpu_backend();
  LinkPlan p;
  p.transport = "tcp";
  p.min_bytes = 1024;
  p.max_bytes = 4096;
  p.step = 2;
  p.iterations = 3;
  p.warmup = 1;
  p.token = "job-contract-token";
  p.wait = std::chrono::seconds(20);
  Seen seen;
  const auto cases = run_recorded(p, cpu.get(), seen);
  ASSERT_EQ(cases.size(), 3u);
  expect_emitted_as_returned(cases, seen, "link: 1K to 4K over tcp");
}

TEST(JobContract, AStepThatThrowsIsEnded) {
  test::TempDir dir;
  IoPlan r;
  r.directory = dir.path();  // nothing written there: the read finds no file
  r.pattern = IoPattern::read;
  r.threads = 1;
  r.file_bytes = 64 << 10;
  r.io_bytes = 16 << 10;
  r.engine = "psync";
  r.buffered = true;
  Seen seen;
  EXPECT_THROW(run_recorded(r, nullptr, seen), std::exception);
  EXPECT_TRUE(seen.emitted.empty());
  EXPECT_FALSE(seen.progress.open()) << "the step was left open";
}

TEST(JobContract, AMissingBackendOrRuntimeNamesTheJob) {
  CopyPlan c;
  c.devices = 1;
  JobContext none{};
  const std::string copy = test::error_of([&] { run(c, none); });
  EXPECT_EQ(copy, "copy: JobContext.backend is not set");
  const auto cpu = make_cpu_backend();
  P2pRemotePlan remote;
  JobContext no_ranks{.backend = cpu.get()};
  EXPECT_EQ(test::error_of([&] { run(remote, no_ranks); }), "p2p: JobContext.runtime is not set");
}

}  // namespace
}  // namespace xb
