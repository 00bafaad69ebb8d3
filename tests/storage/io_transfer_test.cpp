// The io job's transfer types in process: CPUONLY (host buffers) and CPU_GPU (pinned bounce buffers
// <-> device memory, here the cpu backend's arenas, through its streams and events) with every
// engine, every write order and every read order, reads verified where the data arrived (for
// CPU_GPU: in device memory, copied back by a stream). GPUD is unavailable without a backend that
// has GPU-direct storage. Real files under /var/tmp; timings never asserted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <tuple>

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "jobs/io/io_config.hpp"
#include "jobs/io/io_job.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

using test::TempDir;
using test::metric;
using test::error_of;

IoPlan transfer_plan(const std::filesystem::path& dir, IoPattern pattern, const std::string& engine,
                     IoTransfer transfer) {
  IoPlan p;
  p.directory = dir;
  p.threads = 2;
  p.pattern = pattern;
  p.file_bytes = 512u << 10;
  p.io_bytes = 16u << 10;
  p.engine = engine;
  p.queue_depth = 4;
  p.transfer = transfer;
  return p;
}

// Engine x write order x read order x transfer type.
using Case = std::tuple<std::string, IoPattern, IoPattern, IoTransfer>;
class IoTransferRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(IoTransferRoundTrip, WritesThenReadsBackVerified) {
  const auto& [engine, write_pattern, read_pattern, transfer] = GetParam();
  auto backend = make_cpu_backend();
  TempDir dir;
  const CaseResult w = test::run_one(transfer_plan(dir.path(), write_pattern, engine, transfer), backend.get());
  // The typed record (item 7) holds every key the job wrote, no more.
  EXPECT_EQ(nlohmann::json(w.config.get<IoConfig>()), w.config) << w.config.dump();
  EXPECT_EQ(metric(w, "ops"), 2 * 32);
  EXPECT_EQ(metric(w, "bytes"), 2.0 * (512 << 10));
  EXPECT_EQ(w.config.at("transfer"), std::string(to_string(transfer)));
  EXPECT_EQ(w.label("xfer"), std::string(to_string(transfer)));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "xferbench-io.0"));
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "xferbench-io.1"), 512u << 10);

  IoPlan r = transfer_plan(dir.path(), read_pattern, engine, transfer);
  r.verify = true;
  const CaseResult rr = test::run_one(r, backend.get());
  EXPECT_EQ(metric(rr, "ops"), 2 * 32);
  EXPECT_GT(metric(rr, "throughput"), 0);
  EXPECT_LE(metric(rr, "latency_min"), metric(rr, "latency_max"));
  if (transfer == IoTransfer::cpu_gpu) {
    EXPECT_EQ(rr.config.at("backend"), "cpu");
    EXPECT_EQ(rr.config.at("device"), 0);
    EXPECT_EQ(rr.config.at("bounce_buffers_per_thread"), engine == "psync" ? 2 : 8);  // 2 x the effective depth
    EXPECT_NE(rr.name.find("cpu-gpu"), std::string::npos) << rr.name;
  } else {
    EXPECT_FALSE(rr.config.contains("backend"));
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string t(to_string(std::get<3>(info.param)));
  for (char& c : t) c = c == '-' ? '_' : c;
  return std::get<0>(info.param) + "_" + std::string(to_string(std::get<1>(info.param))) + "_" +
         std::string(to_string(std::get<2>(info.param))) + "_" + t;
}

INSTANTIATE_TEST_SUITE_P(AllEnginesAndTransfers, IoTransferRoundTrip,
                         ::testing::Combine(::testing::Values("psync", "libaio", "io_uring"),
                                            ::testing::Values(IoPattern::write, IoPattern::randwrite),
                                            ::testing::Values(IoPattern::read, IoPattern::randread),
                                            ::testing::Values(IoTransfer::cpu, IoTransfer::cpu_gpu)),
                         case_name);

TEST(IoTransfer, CpuGpuAndCpuOnlyAgreeOnTheData) {
  // What CPU_GPU wrote (out of device memory) verifies when read by CPUONLY, and the reverse, with
  // one shared file, several threads, depth 1 (gdsio's) and a device index other than 0.
  auto backend = make_cpu_backend();
  TempDir dir;
  for (auto [writer, reader] : {std::pair{IoTransfer::cpu_gpu, IoTransfer::cpu}, {IoTransfer::cpu, IoTransfer::cpu_gpu}}) {
    IoPlan w = transfer_plan({}, IoPattern::randwrite, "io_uring", writer);
    w.file = dir.path() / "one";
    w.threads = 3;
    w.queue_depth = 1;
    w.device = 1;
    test::run_one(w, backend.get());
    IoPlan r = w;
    r.pattern = IoPattern::read;
    r.transfer = reader;
    r.verify = true;
    r.engine = "libaio";
    EXPECT_EQ(metric(test::run_one(r, backend.get()), "ops"), 3 * 32);
  }
}

TEST(IoTransfer, CpuGpuTimeBoundedAndBuffered) {
  auto backend = make_cpu_backend();
  TempDir dir;
  IoPlan w = transfer_plan(dir.path(), IoPattern::write, "libaio", IoTransfer::cpu_gpu);
  w.buffered = true;
  test::run_one(w, backend.get());
  IoPlan r = transfer_plan(dir.path(), IoPattern::randread, "io_uring", IoTransfer::cpu_gpu);
  r.seconds = 1;
  r.verify = true;
  EXPECT_GT(metric(test::run_one(r, backend.get()), "ops"), 0);
}

TEST(IoTransfer, CpuGpuVerifyFindsAFlippedByteInDeviceMemory) {
  auto backend = make_cpu_backend();
  TempDir dir;
  test::run_one(transfer_plan(dir.path(), IoPattern::write, "psync", IoTransfer::cpu), backend.get());
  const auto victim = dir.path() / "xferbench-io.0";
  test::flip_byte(victim, 100'000);
  for (const char* engine : {"psync", "libaio", "io_uring"}) {
    IoPlan r = transfer_plan(dir.path(), IoPattern::randread, engine, IoTransfer::cpu_gpu);
    r.verify = true;
    const std::string what = error_of([&] { test::run_one(r, backend.get()); });
    EXPECT_NE(what.find(victim.string() + " byte at offset 100000 "), std::string::npos) << what;
    EXPECT_NE(what.find("in the 16384-byte IO at offset 98304, as it arrived in device memory"), std::string::npos)
        << what;
  }
}

TEST(IoTransfer, GpuDirectIsUnavailableWithoutGpuDirectStorage) {
  auto backend = make_cpu_backend();
  ASSERT_FALSE(backend->capabilities().storage_direct);
  TempDir dir;
  for (IoPattern p : {IoPattern::write, IoPattern::read}) {
    const IoPlan plan = transfer_plan(dir.path(), p, "io_uring", IoTransfer::gpu_direct);
    try {
      test::run_one(plan, backend.get());
      ADD_FAILURE() << "GPUD ran on the cpu backend";
    } catch (const MachineLimit& e) {  // an Unavailable: exit 3, the survey waives it
      const std::string said = e.text().worded(native_flag_words());
      EXPECT_EQ(said.rfind("--xfer gpu-direct needs a GPU backend with GPU-direct storage", 0), 0u) << said;
    }
    EXPECT_TRUE(dir.entries().empty());  // refused before anything was created
  }
}

TEST(IoTransfer, BadDeviceIndexIsUsageError) {
  auto backend = make_cpu_backend();
  TempDir dir;
  IoPlan p = transfer_plan(dir.path(), IoPattern::write, "psync", IoTransfer::cpu_gpu);
  p.device = -1;
  EXPECT_THROW(validate_io_plan(p, backend.get()), UsageError);
}

}  // namespace
}  // namespace xb
