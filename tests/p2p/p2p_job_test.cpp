// The p2p job in process on the real cpu backend: arenas copied through its peer copy on real
// streams, timed by its events. One pair each way and both ways, every pair as a matrix that the
// report's convention accepts, the one-byte and the odd sizes, verification that finds a flipped
// byte at its offset, and the plan's rules (each names its flag).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "backends/registry.hpp"
#include "core/error.hpp"
#include "core/matrix.hpp"
#include "jobs/p2p/p2p_copy.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_remote.hpp"
#include "support/job_helpers.hpp"
#include "support/metric_checks.hpp"
#include "support/wrapped_cpu_backend.hpp"
#include "support/run_job.hpp"
#include "support/thread_launcher.hpp"

namespace xb {
namespace {

using test::error_of;
using test::metric;

struct CpuBackend {
  std::unique_ptr<BackendRegistry> registry = BackendRegistry::create({});
  Backend& get() { return registry->get("cpu"); }
};

P2pPlan small_plan(std::uint64_t size = 1 << 20, std::uint64_t times = 5) {
  P2pPlan p;
  p.size = size;
  p.executions = times;
  p.warmup = 1;
  p.verify = true;
  return p;
}

// Every ok case: one elapsed sample per execution, bandwidth = bytes moved / elapsed_avg.
void expect_consistent(const CaseResult& c, std::uint64_t size, std::uint64_t times, bool bidirectional) {
  ASSERT_EQ(c.status, CaseStatus::ok) << c.status_reason;
  const Series* s = c.find_series("elapsed");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->samples.size(), times);
  for (double v : s->samples) EXPECT_GT(v, 0.0);
  const double avg = std::accumulate(s->samples.begin(), s->samples.end(), 0.0) / static_cast<double>(times);
  EXPECT_NEAR(metric(c, "elapsed_avg"), avg, avg * 1e-9);
  const double bytes = static_cast<double>(size) * (bidirectional ? 2 : 1);
  EXPECT_NEAR(metric(c, "bandwidth"), bytes / avg / 1e3, 1e-9 * bytes / avg);
  EXPECT_NEAR(metric(c, "bandwidth_gib"), bytes / (avg / 1e6) / 1073741824.0, 1e-6);
  EXPECT_EQ(metric(c, "executions"), static_cast<double>(times));
  EXPECT_LE(metric(c, "elapsed_min"), avg * 1.0000001);
  EXPECT_GE(metric(c, "elapsed_max"), avg * 0.9999999);
  EXPECT_EQ(c.config.at("size_bytes").get<std::uint64_t>(), size);
  EXPECT_EQ(c.label("direction"), bidirectional ? "bidirectional" : "unidirectional");
}

TEST(P2pJob, OnePairOneWayAndBothWays) {
  CpuBackend cpu;
  P2pPlan plan = small_plan();
  plan.pairs = {{1, 0}};
  plan.bidirectional = true;
  validate_p2p_plan(plan, cpu.get());
  std::vector<std::string> seen;
  const auto cases = test::run_job(plan, &cpu.get(), [&](const CaseResult& c) { seen.push_back(c.name); });
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(seen, (std::vector<std::string>{"p2p_unidirectional", "p2p_bidirectional"})) << "each case as it completes";
  expect_consistent(cases[0], 1 << 20, 5, false);
  expect_consistent(cases[1], 1 << 20, 5, true);
  EXPECT_EQ(cases[0].label("from"), "cpu::device::1");
  EXPECT_EQ(cases[0].label("to"), "cpu::device::0");
  EXPECT_EQ(cases[1].label("from"), "cpu::device::1");
  EXPECT_FALSE(case_matrix(cases[0]).has_value()) << "one pair carries no matrix";
  // The cpu backend holds each window at its gate until all of it is queued.
  EXPECT_EQ(cases[0].config.value("timing", ""), "device events, gated (the window queued whole first)");
  EXPECT_EQ(cases[1].config.value("timing", ""), "device events, gated (the window queued whole first)");
}

TEST(P2pJob, OneByteOddSizesAndManyWindows) {
  CpuBackend cpu;
  for (const std::uint64_t size : {1ull, 7ull, 4097ull}) {
    SCOPED_TRACE(size);
    P2pPlan plan = small_plan(size, 3);
    plan.bidirectional = true;
    const auto cases = test::run_job(plan, &cpu.get());
    ASSERT_EQ(cases.size(), 2u);
    expect_consistent(cases[0], size, 3, false);
    expect_consistent(cases[1], size, 3, true);
  }
  // More executions than one window of events (kP2pWindow): every one timed, none lost.
  P2pPlan many = small_plan(4096, kP2pWindow * 2 + 3);
  many.bidirectional = true;
  many.warmup = kP2pWindow + 1;
  const auto cases = test::run_job(many, &cpu.get());
  expect_consistent(cases.at(0), 4096, kP2pWindow * 2 + 3, false);
  expect_consistent(cases.at(1), 4096, kP2pWindow * 2 + 3, true);
}

TEST(P2pJob, AllPairsMatrixFollowsTheReportConvention) {
  CpuBackend cpu;
  P2pPlan plan = small_plan(64 << 10, 3);
  plan.all_pairs = true;
  plan.devices = 3;
  plan.bidirectional = true;
  validate_p2p_plan(plan, cpu.get());
  const auto cases = test::run_job(plan, &cpu.get());
  // 6 ordered pairs one way, 3 unordered pairs both ways, then the two matrices.
  ASSERT_EQ(cases.size(), 6u + 3u + 2u);
  for (std::size_t i = 0; i < 9; ++i) expect_consistent(cases[i], 64 << 10, 3, i >= 6);
  for (const bool bi : {false, true}) {
    const CaseResult& mc = cases[9 + (bi ? 1 : 0)];
    EXPECT_EQ(mc.name, bi ? "p2p_matrix_bidirectional" : "p2p_matrix_unidirectional");
    const auto m = case_matrix(mc);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->rows, (std::vector<std::string>{"cpu0", "cpu1", "cpu2"}));
    EXPECT_EQ(m->cols, m->rows);
    EXPECT_EQ(m->unit, "GB/s");
    EXPECT_TRUE(m->higher_is_better);
    std::vector<double> cells;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        const auto& cell = m->values[r][c];
        if (r == c) {
          EXPECT_FALSE(cell.has_value()) << "the diagonal is not measured";
          continue;
        }
        ASSERT_TRUE(cell.has_value()) << r << "," << c;
        // The cell is the bandwidth of its pair's case (bidirectionally the pair measured once).
        const int lo = std::min(r, c), hi = std::max(r, c);
        const std::string from = p2p_device_name("cpu", bi ? lo : r), to = p2p_device_name("cpu", bi ? hi : c);
        const CaseResult* pc = nullptr;
        for (const auto& x : cases) {
          if (x.name == (bi ? "p2p_bidirectional" : "p2p_unidirectional") && x.label("from") == from &&
              x.label("to") == to) {
            pc = &x;
          }
        }
        ASSERT_NE(pc, nullptr) << from << " " << to;
        EXPECT_DOUBLE_EQ(*cell, metric(*pc, "bandwidth"));
        cells.push_back(*cell);
      }
    }
    // The summary figures are those of the cells: six of them (bidirectionally each pair fills
    // both of its cells), so the median is the mean of the middle two.
    std::sort(cells.begin(), cells.end());
    ASSERT_EQ(cells.size(), 6u);
    EXPECT_DOUBLE_EQ(metric(mc, "bandwidth_min"), cells.front());
    EXPECT_DOUBLE_EQ(metric(mc, "bandwidth_median"), (cells[2] + cells[3]) / 2);
    EXPECT_DOUBLE_EQ(metric(mc, "bandwidth_max"), cells.back());
    EXPECT_EQ(metric(mc, "pairs"), 6.0);
    test::expect_names_and_units(
        mc.metrics,
        {{"bandwidth_min", "GB/s"}, {"bandwidth_median", "GB/s"}, {"bandwidth_max", "GB/s"}, {"pairs", "cells"}});
  }
}

TEST(P2pJob, VerificationFindsAFlippedByteAtItsOffset) {
  CpuBackend cpu;
  const std::uint64_t size = 1 << 16, seed = 1234;
  P2pDevice a = P2pDevice::open(cpu.get(), 0, size, "memcpy");
  P2pDevice b = P2pDevice::open(cpu.get(), 1, size, "memcpy");
  ASSERT_TRUE(connect_p2p(a, b, true).ok);
  fill_p2p_source(a, size, seed);
  fill_p2p_source(b, size, seed + 1);
  run_p2p_executions(a, b, size, true, 0, 2);
  check_p2p_destination(b, a, size, seed, "cpu");
  check_p2p_destination(a, b, size, seed + 1, "cpu");
  // The wrong seed (another device's data) is caught at offset 0.
  EXPECT_NE(error_of([&] { check_p2p_destination(b, a, size, seed + 1, "cpu"); }).find("offset 0 "), std::string::npos);
  // A byte flipped in the destination (cpu arenas are host memory) is found where it is.
  static_cast<unsigned char*>(b.dst->data())[40000] ^= 0x5a;
  const std::string e = error_of([&] { check_p2p_destination(b, a, size, seed, "cpu"); });
  EXPECT_NE(e.find("verify failed: cpu::device::0 -> cpu::device::1"), std::string::npos) << e;
  EXPECT_NE(e.find("offset 40000 "), std::string::npos) << e;
}

// Sources are filled and destinations checked through the setup engine's stream, never the engine
// under test ("nt" here, counted): an engine that gets copies wrong cannot fill and check its own work.
TEST(P2pJob, VerificationCopiesThroughTheSetupEngineNotTheOneUnderTest) {
  auto through_tested = std::make_shared<int>(0);
  test::CpuWrap wrap;
  wrap.stream = [through_tested](std::unique_ptr<Stream> real, std::string_view engine) -> std::unique_ptr<Stream> {
    class Counting final : public test::ForwardingStream {
     public:
      Counting(std::unique_ptr<Stream> r, std::shared_ptr<int> n) : ForwardingStream(std::move(r)), n_(std::move(n)) {}
      void copy(const CopyOp& op) override {
        ++*n_;
        real().copy(op);
      }

     private:
      std::shared_ptr<int> n_;
    };
    if (engine != "nt") return real;
    return std::make_unique<Counting>(std::move(real), through_tested);
  };
  const auto backend = test::make_wrapped_cpu_backend(std::move(wrap));
  if (backend->capabilities().engines.size() < 2) GTEST_SKIP() << "this CPU has no second copy engine";
  const std::uint64_t size = 3 << 20, seed = 99;
  P2pDevice a = P2pDevice::open(*backend, 0, size, "nt");
  P2pDevice b = P2pDevice::open(*backend, 1, size, "nt");
  ASSERT_TRUE(connect_p2p(a, b, false).ok);
  fill_p2p_source(a, size, seed);
  EXPECT_EQ(*through_tested, 0) << "the source was filled through the engine under test";
  run_p2p_executions(a, b, size, false, 0, 3);
  EXPECT_EQ(*through_tested, 3);
  check_p2p_destination(b, a, size, seed, "cpu");
  EXPECT_EQ(*through_tested, 3) << "the destination was checked through the engine under test";
  EXPECT_EQ(a.setup->engine(), setup_engine(backend->capabilities()));
}

// A device's gate whose wait gave up before the host opened it (the CUDA gate's bound): the
// window's time would hold its enqueuing, so the executions end in that error, not in a figure.
TEST(P2pJob, AWindowWhoseGateGaveUpIsAnErrorNotAFigure) {
  test::CpuWrap wrap;
  wrap.gate = [](std::unique_ptr<Gate> real) -> std::unique_ptr<Gate> {
    return std::make_unique<test::GaveUpGate>(std::move(real), "the test's gate gave up");
  };
  const auto backend = test::make_wrapped_cpu_backend(std::move(wrap));
  const std::uint64_t size = 1 << 20;
  const std::string engine = setup_engine(backend->capabilities());
  P2pDevice a = P2pDevice::open(*backend, 0, size, engine);
  P2pDevice b = P2pDevice::open(*backend, 1, size, engine);
  ASSERT_TRUE(connect_p2p(a, b, true).ok);
  EXPECT_EQ(error_of([&] { run_p2p_executions(a, b, size, true, 0, 3); }), "the test's gate gave up");
}

// A backend whose events measure no time (capability event_timing off): the host clock times each
// window and its executions share it; every execution still has its sample, and the result says how.
TEST(P2pJob, WithoutDeviceEventsTheHostClockTimesTheWindows) {
  test::CpuWrap wrap;
  wrap.event_timing = false;  // the wrapped device's elapsed_us now throws
  const auto backend = test::make_wrapped_cpu_backend(std::move(wrap));
  P2pPlan plan = small_plan(64 << 10, kP2pWindow + 5);
  plan.bidirectional = true;
  validate_p2p_plan(plan, *backend);
  const auto cases = test::run_job(plan, backend.get());
  ASSERT_EQ(cases.size(), 2u);
  expect_consistent(cases[0], 64 << 10, kP2pWindow + 5, false);
  expect_consistent(cases[1], 64 << 10, kP2pWindow + 5, true);
  for (const auto& c : cases) {
    EXPECT_EQ(c.config.value("timing", ""), "host clock: each window from its first enqueue until drained, over its executions");
    // A window's executions share its time: the first window's 128 samples are one value.
    const auto& s = c.find_series("elapsed")->samples;
    EXPECT_EQ(std::count(s.begin(), s.begin() + kP2pWindow, s.front()), static_cast<long>(kP2pWindow));
  }
}

TEST(P2pJob, PlanRulesNameTheirFlag) {
  CpuBackend cpu;
  const auto rejected = [&](P2pPlan p) { return error_of([&] { validate_p2p_plan(p, cpu.get()); }); };
  P2pPlan p = small_plan();
  p.size = 0;
  EXPECT_EQ(rejected(p).rfind("-s 0:", 0), 0u) << rejected(p);
  p.size = kP2pMaxSize + 1;
  EXPECT_EQ(rejected(p).rfind("-s 4294967297:", 0), 0u) << rejected(p);
  p = small_plan();
  p.executions = 0;
  EXPECT_EQ(rejected(p).rfind("--times 0:", 0), 0u);
  p.executions = kP2pMaxExecutions + 1;
  EXPECT_EQ(rejected(p).rfind("--times 100000001:", 0), 0u);
  p = small_plan();
  p.pairs = {{2, 2}};
  EXPECT_EQ(rejected(p).rfind("--dst 2: the same device as --src", 0), 0u) << rejected(p);
  p.pairs = {{kP2pMaxDevices, 0}};
  EXPECT_EQ(rejected(p).rfind("--src 1024:", 0), 0u) << rejected(p);
  p = small_plan();
  p.engine = "warp";
  EXPECT_EQ(rejected(p).rfind("--engine warp:", 0), 0u);
  p = small_plan();
  p.all_pairs = true;
  p.devices = 1;
  EXPECT_EQ(rejected(p).rfind("--devices 1:", 0), 0u) << rejected(p);
  // 128 devices x 2 buffers x 4 GiB: far more than this machine has, refused before allocating.
  p.devices = kP2pMaxMatrixDevices;
  p.size = kP2pMaxSize;
  EXPECT_NE(rejected(p).find("of memory"), std::string::npos) << rejected(p);
  // A matrix past 128 devices (a million cases at 1000) is refused whatever the size.
  p.devices = kP2pMaxMatrixDevices + 1;
  p.size = 4096;
  EXPECT_EQ(rejected(p).rfind("--devices 129: a matrix of at most 128 devices (16256 ordered pairs)", 0), 0u)
      << rejected(p);
  // Names as a dialect words them.
  const FlagWords names = native_flag_words().with({{"p2p.size", "--size"}});
  p = small_plan();
  p.size = 0;
  EXPECT_EQ(error_of([&] { validate_p2p_plan(p, cpu.get()); }, names).rfind("--size 0:", 0), 0u);
  EXPECT_TRUE(rejected(small_plan()).empty());
}

// Every rank's line-ups counted, as ranks of one run pass through them: when a case reached rank 0's
// sink, as the number of line-ups so far.
class CountingRuntime final : public Runtime {
 public:
  CountingRuntime(Runtime& real, std::atomic<int>& line_ups) : real_(real), line_ups_(line_ups) {}
  int rank() const override { return real_.rank(); }
  int size() const override { return real_.size(); }
  std::string_view name() const override { return real_.name(); }
  void barrier() override {
    ++line_ups_;
    real_.barrier();
  }
  std::vector<std::string> allgather(const std::string& mine) override { return real_.allgather(mine); }
  std::vector<std::string> gather(const std::string& mine, int root) override { return real_.gather(mine, root); }
  std::string broadcast(const std::string& text, int root) override { return real_.broadcast(text, root); }
  double max(double mine) override { return real_.max(mine); }

 private:
  Runtime& real_;
  std::atomic<int>& line_ups_;
};

TEST(P2pAcrossNodes, EachCaseReachesTheSinkAsItsPairCompletes) {
  // Two ranks as threads over TCP on loopback: the four cases of the pair, each handed to rank 0's
  // sink once measured, so a run that fails or is interrupted at a later case keeps the earlier.
  CpuBackend cpu;
  Backend& backend = cpu.get();  // made once, before the ranks share it
  P2pRemotePlan plan;
  plan.base = small_plan(64 << 10, 3);
  plan.transport = "tcp";
  plan.host = "127.0.0.1";
  plan.token = "p2p-across-nodes-test";
  std::atomic<int> line_ups{0};
  std::vector<int> arrived_after;  // rank 0's: the line-ups so far when each case arrived
  std::vector<std::string> names;
  ThreadLauncher launcher(2);
  launcher.run([&](Runtime& rt) {
    CountingRuntime counted(rt, line_ups);
    JobContext ctx{.backend = &backend, .runtime = &counted};
    if (rt.rank() == 0) {
      ctx.on_case = [&](const CaseResult& c) {
        arrived_after.push_back(line_ups.load());
        names.push_back(c.name);
      };
    }
    return std::to_string(run(plan, ctx).size());
  });
  ASSERT_EQ(names, (std::vector<std::string>{"p2p_unidirectional", "p2p_bidirectional", "p2p_unidirectional",
                                             "p2p_bidirectional"}));
  // Each case came after its own executions' line-ups and before the next case's: a case handed
  // over only once the run ended would arrive with every line-up of the run behind it.
  for (std::size_t i = 1; i < arrived_after.size(); ++i) {
    EXPECT_LT(arrived_after[i - 1], arrived_after[i]) << "case " << i;
  }
}

}  // namespace
}  // namespace xb
