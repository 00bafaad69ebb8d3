// The copy job (src/jobs/copy/copy_job.hpp): plan validation, memory arithmetic, and real runs on
// the cpu backend through forked device processes, every direction and topology, verified.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cpu/copy_kernels.hpp"
#include "backends/cpu/cpu_backend.hpp"
#include "cli/native_flag_words.hpp"
#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "core/size.hpp"
#include "jobs/copy/copy_engine_choice.hpp"
#include "jobs/copy/copy_job.hpp"
#include "runtime/fork_launcher.hpp"

#include "support/temp_dir.hpp"
#include "support/wrapped_cpu_backend.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

namespace fs = std::filesystem;

CopyPlan tiny_plan() {
  CopyPlan p;
  p.block_bytes = 16 * 1024;
  p.blocks = 8;
  p.iterations = 3;
  p.warmup = 1;
  p.devices = 2;
  p.streams = 2;
  p.verify = true;
  return p;
}

// What a command with `words` prints for the plan: its first rule broken, or "<accepted>".
std::string usage_error(const CopyPlan& plan, Backend& backend, const FlagWords& words = native_flag_words()) {
  try {
    validate_copy_plan(plan, backend);
  } catch (const PlanError& e) {
    return e.text().worded(words);
  } catch (const MachineLimit& e) {
    return e.text().worded(words);
  }
  return "<accepted>";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class CopyJobTest : public testing::Test {
 protected:
  std::unique_ptr<Backend> backend = make_cpu_backend();
};

// --- validation ---------------------------------------------------------------------------------

TEST_F(CopyJobTest, ValidPlanIsAccepted) {
  EXPECT_NO_THROW(validate_copy_plan(tiny_plan(), *backend));
  CopyPlan p = tiny_plan();
  p.engine = "nt";
  p.fragments = p.block_bytes;  // one byte per fragment: the most allowed
  EXPECT_NO_THROW(validate_copy_plan(p, *backend));
}

TEST_F(CopyJobTest, RejectsZeroStreams) {
  CopyPlan p = tiny_plan();
  p.streams = 0;
  const std::string msg = usage_error(p, *backend);
  EXPECT_EQ(msg.rfind("--streams 0", 0), 0u) << msg;
}

TEST_F(CopyJobTest, RejectsZeroDevices) {
  CopyPlan p = tiny_plan();
  p.devices = 0;
  const std::string msg = usage_error(p, *backend);
  EXPECT_EQ(msg.rfind("-d 0", 0), 0u) << msg;
}

TEST_F(CopyJobTest, RejectsMoreFragmentsThanBytes) {
  CopyPlan p = tiny_plan();
  p.block_bytes = 100;
  p.fragments = 101;
  const std::string msg = usage_error(p, *backend);
  EXPECT_EQ(msg.rfind("-f 101", 0), 0u) << msg;
  EXPECT_TRUE(contains(msg, "100")) << msg;
}

TEST_F(CopyJobTest, RejectsUnknownEngineListingTheKnownOnes) {
  CopyPlan p = tiny_plan();
  p.engine = "dma";
  const std::string msg = usage_error(p, *backend);
  EXPECT_EQ(msg.rfind("--engine dma", 0), 0u) << msg;
  EXPECT_TRUE(contains(msg, "memcpy")) << msg;
}

TEST_F(CopyJobTest, RejectsPlanNeedingMoreMemoryThanTheMachineHas) {
  CopyPlan p = tiny_plan();
  p.block_bytes = std::uint64_t{1} << 30;  // 1G x 1024 blocks x 8 devices, twice: 16 TiB
  p.blocks = 1024;
  p.devices = 8;
  const std::string msg = usage_error(p, *backend);
  EXPECT_TRUE(contains(msg, "needs")) << msg;
  EXPECT_TRUE(contains(msg, "-s 1G")) << msg;
  EXPECT_TRUE(contains(msg, "-n 1024")) << msg;
  EXPECT_TRUE(contains(msg, "-d 8")) << msg;
}

TEST_F(CopyJobTest, MessagesUseTheCallersFlagNames) {
  const FlagWords flags = native_flag_words().with({{"copy.streams", "--nstreams"}, {"copy.devices", "--cards"}});
  CopyPlan p = tiny_plan();
  p.streams = 0;
  EXPECT_EQ(usage_error(p, *backend, flags).rfind("--nstreams 0", 0), 0u);
  p = tiny_plan();
  p.devices = 0;
  EXPECT_EQ(usage_error(p, *backend, flags).rfind("--cards 0", 0), 0u);
}

TEST_F(CopyJobTest, RejectsOtherOutOfRangeCounts) {
  CopyPlan p = tiny_plan();
  p.block_bytes = 0;
  EXPECT_EQ(usage_error(p, *backend).rfind("-s", 0), 0u);
  p = tiny_plan();
  p.blocks = 0;
  EXPECT_EQ(usage_error(p, *backend).rfind("-n 0", 0), 0u);
  p = tiny_plan();
  p.iterations = 0;
  EXPECT_EQ(usage_error(p, *backend).rfind("-i 0", 0), 0u);
  p = tiny_plan();
  p.streams = 257;
  EXPECT_EQ(usage_error(p, *backend).rfind("--streams 257", 0), 0u);
}

// --- memory arithmetic --------------------------------------------------------------------------

TEST_F(CopyJobTest, MemoryNeedPerDevice) {
  CopyPlan p = tiny_plan();
  p.devices = 3;
  const double side = 16384.0 * 8;  // one side of one device: block_bytes * blocks
  struct Want {
    CopyDirection d;
    double host, device;
  };
  for (const Want& w : {Want{CopyDirection::h2d, side * 3, side * 3}, Want{CopyDirection::d2h, side * 3, side * 3},
                        Want{CopyDirection::d2d, 0, 2 * side * 3}, Want{CopyDirection::h2h, 2 * side * 3, 0}}) {
    p.direction = w.d;
    const CopyMemoryNeed need = copy_memory_need(p);
    EXPECT_DOUBLE_EQ(need.host_bytes, w.host) << to_string(w.d);
    EXPECT_DOUBLE_EQ(need.device_bytes, w.device) << to_string(w.d);
  }
}

TEST_F(CopyJobTest, MemoryNeedShared) {
  CopyPlan p = tiny_plan();
  p.devices = 3;
  p.topology = CopyTopology::shared;
  const double side = 16384.0 * 8;
  struct Want {
    CopyDirection d;
    double host, device;
  };
  // One host buffer for every device; h2h's destination stays per device.
  for (const Want& w : {Want{CopyDirection::h2d, side, side * 3}, Want{CopyDirection::d2h, side, side * 3},
                        Want{CopyDirection::d2d, 0, 2 * side * 3}, Want{CopyDirection::h2h, side + side * 3, 0}}) {
    p.direction = w.d;
    const CopyMemoryNeed need = copy_memory_need(p);
    EXPECT_DOUBLE_EQ(need.host_bytes, w.host) << to_string(w.d);
    EXPECT_DOUBLE_EQ(need.device_bytes, w.device) << to_string(w.d);
  }
}

TEST_F(CopyJobTest, BandwidthMetricsFormula) {
  const auto m = copy_bandwidth_metrics(16384, 4096, 3736);
  ASSERT_EQ(m.size(), 2u);
  const double bytes_per_s = 16384.0 * 4096 / 3736e-6;
  EXPECT_EQ(m[0].name, "bandwidth");
  EXPECT_EQ(m[0].unit, "GiB/s");
  EXPECT_DOUBLE_EQ(m[0].value, bytes_per_s / (1024.0 * 1024 * 1024));
  EXPECT_EQ(m[1].name, "bandwidth_decimal");
  EXPECT_EQ(m[1].unit, "GB/s");
  EXPECT_DOUBLE_EQ(m[1].value, bytes_per_s / 1e9);
  EXPECT_FALSE(m[0].formula.empty());
  // No time measured: no bandwidth rather than infinity.
  EXPECT_DOUBLE_EQ(copy_bandwidth_metrics(16384, 1, 0)[0].value, 0);
}

// --- real runs ----------------------------------------------------------------------------------

std::string host_label(CopyTopology t, bool source, CopyDirection d, HostMemoryKind kind) {
  const bool host_src = d == CopyDirection::h2d || d == CopyDirection::h2h;
  if (t == CopyTopology::shared && (source || !host_src)) return "cpu::shm::0";
  // The destination of a host-to-host copy is pinned memory ("host"), whatever the source kind.
  if (!source && host_src) return "cpu::host::all";
  return kind == HostMemoryKind::pinned ? "cpu::host::all" : "cpu::" + std::string(to_string(kind)) + "::all";
}

std::string expected_label(const CopyPlan& p, bool source) {
  const bool host = source ? (p.direction == CopyDirection::h2d || p.direction == CopyDirection::h2h)
                           : (p.direction == CopyDirection::d2h || p.direction == CopyDirection::h2h);
  return host ? host_label(p.topology, source, p.direction, p.host_kind) : "cpu::device::all";
}

void expect_good_result(const CaseResult& r, const CopyPlan& p) {
  EXPECT_EQ(r.status, CaseStatus::ok);
  EXPECT_EQ(r.job, "copy");
  ASSERT_NE(r.find_series("submit"), nullptr);
  ASSERT_NE(r.find_series("copy"), nullptr);
  const Series& submit = *r.find_series("submit");
  const Series& copy = *r.find_series("copy");
  EXPECT_EQ(submit.samples.size(), p.iterations);
  EXPECT_EQ(copy.samples.size(), p.iterations);
  EXPECT_EQ(copy.unit, "us");
  EXPECT_EQ(copy.summary.count, p.iterations);
  ASSERT_EQ(r.ranks.size(), static_cast<std::size_t>(p.devices));
  for (std::size_t rank = 0; rank < r.ranks.size(); ++rank) {
    const RankResult& rr = r.ranks[rank];
    EXPECT_EQ(rr.rank, static_cast<int>(rank));
    EXPECT_NE(rr.device.find("cpu arena " + std::to_string(rank)), std::string::npos) << rr.device;
    // And the device's own time where the backend has events (the cpu backend has).
    const bool events = r.config["timing"].contains("device");
    ASSERT_EQ(rr.series.size(), events ? 3u : 2u);
    EXPECT_EQ(rr.series[0].name, "submit");
    EXPECT_EQ(rr.series[1].name, "copy");
    if (events) {
      EXPECT_EQ(rr.series[2].name, "device");
    }
    EXPECT_EQ(rr.series[0].samples.size(), p.iterations);
    EXPECT_EQ(rr.series[1].samples.size(), p.iterations);
  }
  // Per iteration, all devices last until the slowest is done: the aggregate is the maximum.
  for (std::size_t i = 0; i < p.iterations; ++i) {
    double submit_max = 0, copy_max = 0;
    for (const auto& rr : r.ranks) {
      submit_max = std::max(submit_max, rr.series[0].samples[i]);
      copy_max = std::max(copy_max, rr.series[1].samples[i]);
      // A copy is timed from the start of submission, so it cannot be shorter than the submission.
      EXPECT_GE(rr.series[1].samples[i], rr.series[0].samples[i]);
    }
    EXPECT_DOUBLE_EQ(submit.samples[i], submit_max);
    EXPECT_DOUBLE_EQ(copy.samples[i], copy_max);
    EXPECT_GT(copy.samples[i], 0);
  }
  const std::uint64_t count = p.blocks * static_cast<std::uint64_t>(p.devices);
  const Metric* bw = r.find_metric("bandwidth");
  ASSERT_NE(bw, nullptr);
  EXPECT_EQ(bw->unit, "GiB/s");
  const double want = static_cast<double>(p.block_bytes) * static_cast<double>(count) / (copy.summary.avg / 1e6) /
                      (1024.0 * 1024.0 * 1024.0);
  EXPECT_NEAR(bw->value, want, want * 1e-12);

  EXPECT_EQ(r.label("from"), expected_label(p, true));
  EXPECT_EQ(r.label("to"), expected_label(p, false));
  EXPECT_EQ(r.label("size"), format_size(p.block_bytes));
  EXPECT_EQ(r.label("count"), std::to_string(count));
  // No engine asked for: the job's choice, one of the cpu backend's (WithoutAnEngineTheFastestIsUsedAndNamed).
  const std::string engine = p.engine.empty() ? r.config.at("engine").get<std::string>() : p.engine;
  EXPECT_TRUE(engine == "memcpy" || engine == "nt") << engine;
  EXPECT_EQ(r.label("method"), engine + (p.batch ? "-batch-x" : "-x") + std::to_string(p.streams));
  EXPECT_EQ(r.config.at("block_bytes").get<std::uint64_t>(), p.block_bytes);
  EXPECT_EQ(r.config.at("blocks").get<std::uint64_t>(), p.blocks);
  EXPECT_EQ(r.config.at("devices").get<int>(), p.devices);
  EXPECT_EQ(r.config.at("direction").get<std::string>(), to_string(p.direction));
  EXPECT_EQ(r.config.at("topology").get<std::string>(), to_string(p.topology));
  EXPECT_EQ(r.config.at("batch").get<bool>(), p.batch);
  EXPECT_EQ(r.config.at("fragments").get<std::uint64_t>(), p.fragments);
  EXPECT_EQ(r.config.at("engine").get<std::string>(), engine);
  EXPECT_TRUE(r.config.at("verify").get<bool>());
  EXPECT_EQ(r.name.rfind(std::string(to_string(p.direction)) + "_", 0), 0u) << r.name;
}

// The /dev/shm segments this process has now.
std::size_t my_shm_segments() {
  std::size_t n = 0;
  const std::string prefix = "xferbench-" + std::to_string(getpid()) + "-";
  for (const auto& e : fs::directory_iterator("/dev/shm")) n += e.path().filename().string().rfind(prefix, 0) == 0;
  return n;
}

TEST_F(CopyJobTest, EveryDirectionTopologyBatchAndFragmentationCopiesVerified) {
  for (CopyDirection d : {CopyDirection::h2d, CopyDirection::d2h, CopyDirection::d2d, CopyDirection::h2h}) {
    for (CopyTopology t : {CopyTopology::per_device, CopyTopology::shared}) {
      for (bool batch : {false, true}) {
        for (std::uint64_t fragments : {0u, 3u}) {
          CopyPlan p = tiny_plan();
          p.direction = d;
          p.topology = t;
          p.batch = batch;
          p.fragments = fragments;
          SCOPED_TRACE(testing::Message() << to_string(d) << " " << to_string(t) << " batch " << batch
                                          << " fragments " << fragments);
          ASSERT_NO_THROW(validate_copy_plan(p, *backend));
          ForkLauncher launcher(p.devices);
          const CaseResult r = test::run_one(p, &*backend, &launcher);
          if (t == CopyTopology::shared) p.host_kind = HostMemoryKind::shm;  // as the job resolves it
          expect_good_result(r, p);
          EXPECT_EQ(my_shm_segments(), 0u) << "the shared buffer outlived the run";
        }
      }
    }
  }
}

TEST_F(CopyJobTest, NontemporalEngineAndMoreDevices) {
  CopyPlan p = tiny_plan();
  p.engine = "nt";
  p.devices = 3;
  p.streams = 3;
  p.block_bytes = 16384 + 24;  // not a multiple of the cache line
  p.fragments = 5;
  ForkLauncher launcher(p.devices);
  expect_good_result(test::run_one(p, &*backend, &launcher), p);
}

// Every rank's device time beside the host clock's (the cpu backend has events), and the result
// says which clock each series is.
TEST_F(CopyJobTest, DeviceTimeIsKeptAndEachSeriesNamesItsClock) {
  CopyPlan p = tiny_plan();
  p.devices = 2;
  ForkLauncher launcher(p.devices);
  const CaseResult r = test::run_one(p, &*backend, &launcher);
  ASSERT_TRUE(r.config.contains("timing")) << r.config.dump();
  EXPECT_EQ(r.config["timing"]["copy"], "host clock: first enqueue until every stream has drained");
  EXPECT_EQ(r.config["timing"]["device"].get<std::string>().rfind("device events, ungated", 0), 0u) << r.config.dump();
  ASSERT_EQ(r.ranks.size(), 2u);
  for (const RankResult& rr : r.ranks) {
    ASSERT_EQ(rr.series.size(), 3u);
    EXPECT_EQ(rr.series[2].name, "device");
    ASSERT_EQ(rr.series[2].samples.size(), p.iterations);
    for (std::size_t i = 0; i < p.iterations; ++i) EXPECT_GT(rr.series[2].samples[i], 0.0);
  }
  EXPECT_EQ(r.series.size(), 2u) << "the table's series are unchanged";
}

using xb::test::TempDir;

TEST_F(CopyJobTest, HostMemoryKindsAsSourceAndDestination) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  for (HostMemoryKind kind : {HostMemoryKind::pinned, HostMemoryKind::pageable, HostMemoryKind::odirect}) {
    for (CopyDirection d : {CopyDirection::h2d, CopyDirection::d2h, CopyDirection::h2h}) {
      SCOPED_TRACE(testing::Message() << to_string(kind) << " " << to_string(d));
      CopyPlan p = tiny_plan();
      p.host_kind = kind;
      p.direction = d;
      p.odirect_dir = dir.path();
      ForkLauncher launcher(p.devices);
      expect_good_result(test::run_one(p, &*backend, &launcher), p);
      EXPECT_TRUE(fs::is_empty(dir.path())) << "an O_DIRECT backing file was left behind";
    }
  }
}

TEST_F(CopyJobTest, HugepageHostMemoryRunsOrIsUnavailable) {
  std::ifstream in("/proc/sys/vm/nr_hugepages");
  std::uint64_t reserved = 0;
  in >> reserved;
  CopyPlan p = tiny_plan();
  p.host_kind = HostMemoryKind::hugepage;
  ForkLauncher launcher(p.devices);
  if (reserved == 0) {
    // The machine lacks the memory kind: a waiver (Unavailable), not a failed run.
    try {
      test::run_one(p, &*backend, &launcher);
      FAIL() << "ran on huge pages although vm.nr_hugepages is 0";
    } catch (const Unavailable& e) {
      EXPECT_TRUE(contains(e.what(), "huge pages")) << e.what();
    }
  } else {
    expect_good_result(test::run_one(p, &*backend, &launcher), p);
  }
}

// Streams that drop the copies whose destination is in the last block of a device's buffer: the one
// way to show that verification really looks at the destination, in every direction and topology.
// Used with one stream per device, so that stream sees every block and the first op it gets is
// block 0's.
class DroppingStream final : public test::ForwardingStream {
 public:
  DroppingStream(std::unique_ptr<Stream> real, std::uint64_t block_bytes, std::uint64_t blocks)
      : ForwardingStream(std::move(real)), block_bytes_(block_bytes), blocks_(blocks) {}
  void copy(const CopyOp& op) override {
    if (!dropped(op)) real().copy(op);
  }
  void copy_batch(std::span<const CopyOp> ops) override {
    std::vector<CopyOp> kept;
    for (const auto& op : ops) {
      if (!dropped(op)) kept.push_back(op);
    }
    real().copy_batch(kept);
  }

 private:
  // The job lays blocks out contiguously from the buffer's start, block 0 first.
  bool dropped(const CopyOp& op) {
    const auto* dst = static_cast<const std::byte*>(op.dst);
    if (first_dst_ == nullptr || dst < first_dst_) first_dst_ = dst;
    return static_cast<std::uint64_t>(dst - first_dst_) >= (blocks_ - 1) * block_bytes_;
  }
  std::uint64_t block_bytes_, blocks_;
  const std::byte* first_dst_ = nullptr;
};

// The engine under test ("nt") drops its copies' last block; the setup engine ("memcpy") is sound.
std::unique_ptr<Backend> dropping_backend(std::uint64_t block_bytes, std::uint64_t blocks,
                                          bool device_memory_in_host_ram) {
  test::CpuWrap wrap;
  wrap.device_memory_in_host_ram = device_memory_in_host_ram;
  wrap.stream = [=](std::unique_ptr<Stream> real, std::string_view engine) -> std::unique_ptr<Stream> {
    if (engine != "nt") return real;
    return std::make_unique<DroppingStream>(std::move(real), block_bytes, blocks);
  };
  return test::make_wrapped_cpu_backend(std::move(wrap));
}

TEST_F(CopyJobTest, VerifyCatchesADroppedBlockInEveryDirectionAndTopology) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  for (CopyDirection d : {CopyDirection::h2d, CopyDirection::d2h, CopyDirection::d2d, CopyDirection::h2h}) {
    for (CopyTopology t : {CopyTopology::per_device, CopyTopology::shared}) {
      for (HostMemoryKind kind : {HostMemoryKind::pinned, HostMemoryKind::odirect}) {
        if (t == CopyTopology::shared && kind != HostMemoryKind::pinned) continue;  // shared is always shm
        for (bool batch : {false, true}) {
          SCOPED_TRACE(testing::Message() << to_string(d) << " " << to_string(t) << " " << to_string(kind)
                                          << " batch " << batch);
          CopyPlan p = tiny_plan();
          p.direction = d;
          p.topology = t;
          p.host_kind = kind;
          p.batch = batch;
          p.streams = 1;
          p.fragments = 2;
          p.odirect_dir = dir.path();
          p.engine = "nt";
          // Device memory in host RAM (checked in place) and as a GPU's (checked through streams).
          for (bool in_ram : {true, false}) {
            SCOPED_TRACE(in_ram ? "device memory in host RAM" : "device memory the CPU cannot address");
            const auto dropping = dropping_backend(p.block_bytes, p.blocks, in_ram);
            ForkLauncher launcher(p.devices);
            p.verify = true;
            try {
              test::run_one(p, &*dropping, &launcher);
              ADD_FAILURE() << "verify passed although the last block was never copied";
            } catch (const std::runtime_error& e) {
              const std::string msg = e.what();
              EXPECT_TRUE(contains(msg, "verify failed")) << msg;
              EXPECT_TRUE(contains(msg, "block " + std::to_string(p.blocks - 1))) << msg;
            }
            // Without verification the same run reports its figures: the check is what caught it.
            p.verify = false;
            EXPECT_NO_THROW(test::run_one(p, &*dropping, &launcher));
          }
        }
      }
    }
  }
}

// Streams that hold copies until flushed, as the CUDA batch engine's: the job must submit every
// stream's copies before it waits on any (a holding stream fails a wait while another still holds
// copies), or "batch x 4 streams" runs one stream at a time.
TEST_F(CopyJobTest, EveryStreamsCopiesGoOutBeforeTheJobWaitsOnAny) {
  for (CopyDirection d : {CopyDirection::h2d, CopyDirection::d2d}) {
    for (bool batch : {false, true}) {
      // With event timing the end events' record flushes every stream too; without it only the
      // job's own flushes do, so both are run.
      for (bool events : {true, false}) {
        SCOPED_TRACE(testing::Message() << to_string(d) << " batch " << batch << " events " << events);
        CopyPlan p = tiny_plan();
        p.direction = d;
        p.batch = batch;
        p.streams = 4;
        test::CpuWrap wrap = test::holding_streams();
        wrap.event_timing = events;
        const auto holding = test::make_wrapped_cpu_backend(std::move(wrap));
        ForkLauncher launcher(p.devices);
        const CaseResult r = test::run_one(p, &*holding, &launcher);
        expect_good_result(r, p);
        EXPECT_EQ(r.config["timing"].contains("device"), events);
      }
    }
  }
}

// The holding streams themselves: a wait on one while another holds copies is refused, so the test
// above can fail; flushed first, the same wait passes and the copies land.
TEST_F(CopyJobTest, HoldingStreamsRefuseAWaitWhileAnotherHoldsCopies) {
  const auto holding = test::make_wrapped_cpu_backend(test::holding_streams());
  auto dev = holding->open_device(0);
  auto a = dev->create_stream("memcpy");
  auto b = dev->create_stream("memcpy");
  std::vector<std::byte> src(4096, std::byte{7}), dst(4096, std::byte{0});
  a->copy({dst.data(), src.data(), 2048});
  b->copy({dst.data() + 2048, src.data() + 2048, 2048});
  EXPECT_THROW(a->synchronize(), std::logic_error);
  b->flush();
  a->synchronize();
  b->synchronize();
  EXPECT_EQ(dst, src);
}

// Verification fills and checks device memory through the setup engine, never the engine under
// test: with device memory a GPU's (filled and checked through streams), a device may create only
// the plan's streams of the tested engine ("nt"); one more is setup or verification using it.
TEST_F(CopyJobTest, VerifyFillsAndChecksThroughTheSetupEngineNotTheOneUnderTest) {
  if (std::find(backend->capabilities().engines.begin(), backend->capabilities().engines.end(), "nt") ==
      backend->capabilities().engines.end()) {
    GTEST_SKIP() << "this CPU has no non-temporal copy engine";
  }
  for (CopyDirection d : {CopyDirection::h2d, CopyDirection::d2h, CopyDirection::d2d}) {
    SCOPED_TRACE(to_string(d));
    CopyPlan p = tiny_plan();
    p.direction = d;
    p.engine = "nt";
    test::CpuWrap wrap;
    wrap.device_memory_in_host_ram = false;
    auto created = std::make_shared<int>(0);  // per device process: each has its copy
    wrap.stream = [created, limit = p.streams](std::unique_ptr<Stream> real,
                                               std::string_view engine) -> std::unique_ptr<Stream> {
      if (engine == "nt" && ++*created > limit) {
        throw std::logic_error(fmt::format("stream {} of the engine under test, past the plan's {}: setup or "
                                           "verification copied through it",
                                           *created, limit));
      }
      return real;
    };
    const auto counting = test::make_wrapped_cpu_backend(std::move(wrap));
    ForkLauncher launcher(p.devices);
    expect_good_result(test::run_one(p, &*counting, &launcher), p);
  }
}


// --- the engine when none is asked for ----------------------------------------------------------

// The fastest replaces the first only when 10% faster or more: engines alike never trade places.
TEST(CopyEngineChoice, TheFastestWinsWhenClearlyFasterAndEveryFigureIsNamed) {
  const std::vector<EngineFigure> figures = {{"memcpy", 6.9e9}, {"nt", 9.85e9}, {"slow", 1e9}};
  const EngineChoice c = fastest_engine(figures, 64u << 20, 1);
  EXPECT_EQ(c.engine, "nt");
  EXPECT_EQ(c.why, "the fastest engine over 1 block(s) of 64M: memcpy 6.90 GB/s, nt 9.85 GB/s, slow 1.00 GB/s "
                   "(--engine fixes one)");
  const EngineChoice close = fastest_engine({{"memcpy", 5e9}, {"nt", 5.45e9}}, 4u << 20, 8);
  EXPECT_EQ(close.engine, "memcpy");
  EXPECT_EQ(close.why, "the first engine, none 10% faster over 8 block(s) of 4M: memcpy 5.00 GB/s, nt 5.45 GB/s "
                       "(--engine fixes one)");
  EXPECT_EQ(fastest_engine({{"memcpy", 5e9}, {"nt", 5.5e9}}, 4096, 8).engine, "nt");  // 10% exactly
  EXPECT_EQ(fastest_engine({{"nt", 5e9}, {"memcpy", 4.99e9}}, 4096, 8).engine, "nt");
  EXPECT_EQ(fastest_engine({{"memcpy", 9e9}, {"nt", 1e9}}, 4096, 8).engine, "memcpy");
}

// Nothing is measured for a pass under 16 MiB (in cache: the timing would be noise).
TEST_F(CopyJobTest, APassUnderSixteenMebibytesMeasuresNoEngine) {
  EXPECT_FALSE(choose_copy_engine(*backend, 1u << 20, 15).has_value());
  const auto& engines = backend->capabilities().engines;
  EXPECT_EQ(choose_copy_engine(*backend, 1u << 20, 16).has_value(), engines.size() > 1);
}

// A stream of `slow` that, before each copy, copies the block three times with `fast`'s own kernel:
// `slow` is then slower than `fast` whatever their speeds alone (under ASan the nt kernel's every
// load and store is checked while memcpy's interceptor checks a range once, so "4 times slower"
// did not hold there). It waits for its own worker first: the extra copies never race one queued.
test::CpuWrap slower(std::string slow, std::string fast) {
  test::CpuWrap wrap;
  wrap.stream = [slow, fast](std::unique_ptr<Stream> real, std::string_view e) -> std::unique_ptr<Stream> {
    class Burdened : public test::ForwardingStream {
     public:
      Burdened(std::unique_ptr<Stream> r, cpu::CopyKernel k) : ForwardingStream(std::move(r)), kernel_(k) {}
      void copy(const CopyOp& op) override {
        real().synchronize();
        for (int i = 0; i < 3; ++i) kernel_(op.dst, op.src, op.bytes);
        real().copy(op);
      }
     private:
      cpu::CopyKernel kernel_;
    };
    if (e != slow) return real;
    const cpu::CopyKernel kernel = cpu::find_copy_kernel(fast);
    if (kernel == nullptr) throw std::logic_error("no cpu copy kernel " + fast);
    return std::make_unique<Burdened>(std::move(real), kernel);
  };
  return wrap;
}

// No --engine: the job measures each engine of the cpu backend on its own blocks and runs the
// faster, saying so in the config; an engine burdened with three of the other's copies never
// wins. Given an engine, it is used as given and nothing is measured.
TEST_F(CopyJobTest, WithoutAnEngineTheFastestIsUsedAndNamed) {
  const auto& engines = backend->capabilities().engines;
  if (std::ranges::find(engines, "nt") == engines.end()) GTEST_SKIP() << "this CPU has no non-temporal copy engine";
  CopyPlan p = tiny_plan();
  p.devices = 1;
  p.block_bytes = 1u << 20;
  p.blocks = 16;
  for (const auto& [slow, fast] : {std::pair{"memcpy", "nt"}, std::pair{"nt", "memcpy"}}) {
    SCOPED_TRACE(slow);
    const auto wrapped = test::make_wrapped_cpu_backend(slower(slow, fast));
    ForkLauncher launcher(p.devices);
    const CaseResult r = test::run_one(p, &*wrapped, &launcher);
    EXPECT_EQ(r.config.at("engine"), fast);
    ASSERT_TRUE(r.config.contains("engine_choice")) << r.config.dump();
    const std::string why = r.config.at("engine_choice");
    EXPECT_TRUE(contains(why, " over 16 block(s) of 1M: memcpy ") && contains(why, " GB/s, nt "))
        << why;
    EXPECT_TRUE(contains(r.name, std::string("_") + fast)) << r.name;
  }
  p.engine = "memcpy";
  ForkLauncher launcher(p.devices);
  const CaseResult given = test::run_one(p, &*backend, &launcher);
  EXPECT_EQ(given.config.at("engine"), "memcpy");
  EXPECT_FALSE(given.config.contains("engine_choice")) << given.config.dump();
}

// Where device memory is not host RAM (a GPU's), nothing is measured: the backend's first engine.
TEST_F(CopyJobTest, DeviceMemoryTheHostCannotCopyKeepsTheFirstEngine) {
  test::CpuWrap wrap = slower("memcpy", "nt");
  wrap.device_memory_in_host_ram = false;
  const auto wrapped = test::make_wrapped_cpu_backend(std::move(wrap));
  EXPECT_FALSE(choose_copy_engine(*wrapped, 1u << 20, 64).has_value());
  CopyPlan p = tiny_plan();
  p.devices = 1;
  p.block_bytes = 1u << 20;
  p.blocks = 16;
  ForkLauncher launcher(p.devices);
  const CaseResult r = test::run_one(p, &*wrapped, &launcher);
  EXPECT_EQ(r.config.at("engine"), wrapped->capabilities().engines.front());
  EXPECT_FALSE(r.config.contains("engine_choice"));
}
}  // namespace
}  // namespace xb
