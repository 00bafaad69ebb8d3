// The io job end to end, in process: real files under /var/tmp, real psync, libaio and io_uring.
// Every engine writes (sequentially or at random) and reads back (sequentially or at random) with
// verification; a flipped byte is found at its file and offset; short and missing files fail
// clearly. Timings are never asserted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "jobs/io/io_config.hpp"
#include "jobs/io/io_job.hpp"
#include "storage/file_set.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

using test::TempDir;
using test::metric;
using test::flip_byte;
using test::error_of;

IoPlan small_plan(const std::filesystem::path& dir, IoPattern pattern, const std::string& engine) {
  IoPlan p;
  p.directory = dir;
  p.threads = 2;
  p.pattern = pattern;
  p.file_bytes = 1u << 20;
  p.io_bytes = 16u << 10;
  p.engine = engine;
  p.queue_depth = 4;
  return p;
}

// Engine x write pattern x read pattern.
class IoRoundTrip : public ::testing::TestWithParam<std::tuple<std::string, IoPattern, IoPattern>> {};

TEST_P(IoRoundTrip, WritesThenReadsBackVerified) {
  const auto& [engine, write_pattern, read_pattern] = GetParam();
  TempDir dir;
  IoPlan w = small_plan(dir.path(), write_pattern, engine);
  const CaseResult wr = test::run_one(w);
  EXPECT_EQ(wr.job, "io");
  EXPECT_EQ(metric(wr, "ops"), 2 * 64);
  EXPECT_EQ(metric(wr, "bytes"), 2.0 * (1 << 20));
  EXPECT_GT(metric(wr, "throughput"), 0);
  EXPECT_GT(metric(wr, "latency_p50"), 0);
  EXPECT_LE(metric(wr, "latency_min"), metric(wr, "latency_p50"));
  EXPECT_LE(metric(wr, "latency_p50"), metric(wr, "latency_p99.9"));
  EXPECT_LE(metric(wr, "latency_p99.9"), metric(wr, "latency_max"));
  EXPECT_GE(metric(wr, "cpu_user_time") + metric(wr, "cpu_sys_time"), 0);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"xferbench-io.0", "xferbench-io.1"}));  // records elsewhere
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "xferbench-io.1"), 1u << 20);
  EXPECT_EQ(std::filesystem::status(dir.path() / "xferbench-io.0").permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);

  IoPlan r = small_plan(dir.path(), read_pattern, engine);
  r.verify = true;
  const CaseResult rr = test::run_one(r);
  // The typed record (item 7) holds every key the job wrote, no more.
  EXPECT_EQ(nlohmann::json(rr.config.get<IoConfig>()), rr.config) << rr.config.dump();
  EXPECT_EQ(metric(rr, "ops"), 2 * 64);
  EXPECT_EQ(rr.label("rw"), std::string(to_string(read_pattern)));
  EXPECT_EQ(rr.config.at("verify"), true);
}

std::string round_trip_name(const ::testing::TestParamInfo<IoRoundTrip::ParamType>& info) {
  return std::get<0>(info.param) + "_" + std::string(to_string(std::get<1>(info.param))) + "_" +
         std::string(to_string(std::get<2>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(AllEngines, IoRoundTrip,
                         ::testing::Combine(::testing::Values("psync", "libaio", "io_uring"),
                                            ::testing::Values(IoPattern::write, IoPattern::randwrite),
                                            ::testing::Values(IoPattern::read, IoPattern::randread)),
                         round_trip_name);

// The rates a real run stores follow from the same result's totals (io_metrics_test.cpp checks
// the formulas on known inputs; this checks that run_io hands them its own totals). The tolerance is
// rounding only: x * (1 / wall) against x / wall.
TEST(IoJob, StoredRatesFollowFromTheSameResultsTotals) {
  TempDir dir;
  const CaseResult r = test::run_one(small_plan(dir.path(), IoPattern::write, "psync"));
  const double wall = metric(r, "wall_time"), ops = metric(r, "ops"), bytes = metric(r, "bytes");
  const double user = metric(r, "cpu_user_time"), sys = metric(r, "cpu_sys_time");
  ASSERT_GT(wall, 0);
  constexpr double kRounding = 1e-12;
  const auto expect_rel = [&](const char* name, double expected) {
    EXPECT_NEAR(metric(r, name), expected, std::abs(expected) * kRounding) << name;
  };
  expect_rel("throughput", bytes / wall / 1073741824.0);
  expect_rel("iops", ops / wall);
  expect_rel("cpu_user", user / wall * 100.0);
  expect_rel("cpu_sys", sys / wall * 100.0);
  expect_rel("cpu_per_io", (user + sys) * 1e6 / ops);
  // Every IO lies inside the run: none took longer than the wall time.
  EXPECT_LE(metric(r, "latency_max"), wall * 1e6);
}

TEST(IoJob, OneFileSharedByThreadsAndBufferedMode) {
  TempDir dir;
  for (bool buffered : {false, true}) {
    IoPlan w = small_plan({}, IoPattern::randwrite, "io_uring");
    w.file = dir.path() / "one";
    w.threads = 3;
    w.buffered = buffered;
    test::run_one(w);
    EXPECT_EQ(std::filesystem::file_size(w.file), 3u << 20);  // thread t owns region t
    IoPlan r = w;
    r.pattern = IoPattern::read;
    r.verify = true;
    r.engine = "libaio";
    test::run_one(r);
  }
}

TEST(IoJob, IoSizeOfOneLogicalBlockWorksWithEveryEngine) {
  // The smallest O_DIRECT IO this file system takes (512 here on most drives): buffers that are not
  // a page long each, still aligned as O_DIRECT needs.
  TempDir dir;
  const std::uint64_t block = direct_io_alignment(dir.path());
  ASSERT_GT(block, 0u);
  for (const char* engine : {"psync", "libaio", "io_uring"}) {
    IoPlan w = small_plan(dir.path(), IoPattern::randwrite, engine);
    w.io_bytes = block;
    w.file_bytes = 64 * block;
    test::run_one(w);
    IoPlan r = w;
    r.pattern = IoPattern::randread;
    r.verify = true;
    EXPECT_EQ(metric(test::run_one(r), "ops"), 2 * 64) << engine;
  }
}

TEST(IoJob, SizeIsRoundedDownToWholeIos) {
  TempDir dir;
  IoPlan w = small_plan(dir.path(), IoPattern::write, "psync");
  w.file_bytes = (1u << 20) + 1000;
  const CaseResult r = test::run_one(w);
  EXPECT_EQ(metric(r, "ops"), 2 * 64);
  EXPECT_EQ(r.config.at("size_per_thread"), 1u << 20);
}

TEST(IoJob, PsyncClampsTheQueueDepthToOne) {
  TempDir dir;
  IoPlan w = small_plan(dir.path(), IoPattern::write, "psync");
  w.queue_depth = 16;
  const CaseResult r = test::run_one(w);
  EXPECT_EQ(r.config.at("queue_depth"), 1);
  EXPECT_EQ(r.config.at("queue_depth_requested"), 16);
}

TEST(IoJob, TimeBoundedRunLoopsAndStaysVerifiable) {
  TempDir dir;
  IoPlan w = small_plan(dir.path(), IoPattern::randwrite, "io_uring");
  w.file_bytes = 256u << 10;
  w.seconds = 1;
  const CaseResult r = test::run_one(w);
  EXPECT_GT(metric(r, "ops"), 0);
  IoPlan v = small_plan(dir.path(), IoPattern::read, "libaio");
  v.file_bytes = 256u << 10;
  v.verify = true;
  test::run_one(v);
}

TEST(IoJob, FlippedByteIsFoundAtItsFileAndOffset) {
  TempDir dir;
  test::run_one(small_plan(dir.path(), IoPattern::write, "libaio"));
  const std::uint64_t offset = 345'679;  // inside the 22nd 16 KiB IO of file 1
  flip_byte(dir.path() / "xferbench-io.1", offset);
  for (const char* engine : {"psync", "libaio", "io_uring"}) {
    for (IoPattern pattern : {IoPattern::read, IoPattern::randread}) {
      IoPlan r = small_plan(dir.path(), pattern, engine);
      r.verify = true;
      const std::string what = error_of([&] { test::run_one(r); });
      EXPECT_NE(what.find("verify failed"), std::string::npos) << what;
      EXPECT_NE(what.find((dir.path() / "xferbench-io.1").string() + " byte at offset 345679 "), std::string::npos)
          << what;
      EXPECT_NE(what.find("in the 16384-byte IO at offset 344064"), std::string::npos) << what;
      EXPECT_NE(what.find("done before the error"), std::string::npos) << what;
    }
  }
  // Without --verify the same read succeeds: verification is what finds it.
  test::run_one(small_plan(dir.path(), IoPattern::read, "io_uring"));
}

TEST(IoJob, AByteAtEitherEdgeOfAnIoIsFound) {
  // The first and the last byte of one 16 KiB IO (the 22nd of file 1): a check that stops a byte
  // short, or starts a byte late, misses one of them.
  TempDir dir;
  test::run_one(small_plan(dir.path(), IoPattern::write, "psync"));
  const auto file = dir.path() / "xferbench-io.1";
  for (const std::uint64_t offset : {344'064ull, 344'064ull + 16'383}) {
    flip_byte(file, offset);
    IoPlan r = small_plan(dir.path(), IoPattern::read, "psync");
    r.verify = true;
    const std::string what = error_of([&] { test::run_one(r); });
    EXPECT_NE(what.find(file.string() + " byte at offset " + std::to_string(offset) + " "), std::string::npos) << what;
    flip_byte(file, offset);  // flipped back: the file verifies again
  }
  IoPlan r = small_plan(dir.path(), IoPattern::read, "psync");
  r.verify = true;
  EXPECT_EQ(error_of([&] { test::run_one(r); }), "");
}

TEST(IoJob, FilesCarryTheirOwnPattern) {
  // The seed depends on the file index, so files swapped between threads do not verify: the record
  // of each names the other name (and, past the record, the pattern would differ).
  TempDir dir;
  test::run_one(small_plan(dir.path(), IoPattern::write, "io_uring"));
  const auto a = dir.path() / "xferbench-io.0", b = dir.path() / "xferbench-io.1", t = dir.path() / "swap";
  std::filesystem::rename(a, t);
  std::filesystem::rename(b, a);
  std::filesystem::rename(t, b);
  IoPlan r = small_plan(dir.path(), IoPattern::read, "io_uring");
  r.verify = true;
  const std::string what = error_of([&] { test::run_one(r); });
  EXPECT_NE(what.find(a.string() + ": the record"), std::string::npos) << what;
  EXPECT_NE(what.find("is of " + b.string() + ", another name of the file"), std::string::npos) << what;
}

TEST(IoJob, ReadOfShortFileFailsNamingFileAndBothSizes) {
  TempDir dir;
  test::run_one(small_plan(dir.path(), IoPattern::write, "psync"));
  IoPlan r = small_plan(dir.path(), IoPattern::read, "io_uring");
  r.file_bytes = 2u << 20;
  const std::string what = error_of([&] { test::run_one(r); });
  EXPECT_NE(what.find((dir.path() / "xferbench-io.0").string() + " is 1048576 bytes"), std::string::npos) << what;
  EXPECT_NE(what.find("2097152 bytes"), std::string::npos) << what;
}

TEST(IoJob, ReadOfMissingFileFailsNamingIt) {
  TempDir dir;
  IoPlan r = small_plan(dir.path(), IoPattern::read, "libaio");
  const std::string what = error_of([&] { test::run_one(r); });
  EXPECT_NE(what.find((dir.path() / "xferbench-io.0").string() + " does not exist"), std::string::npos) << what;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(IoJob, InvalidPlansAreUsageErrors) {
  TempDir dir;
  IoPlan p = small_plan(dir.path(), IoPattern::write, "nope");
  EXPECT_THROW(validate_io_plan(p), UsageError);
  p = small_plan(dir.path(), IoPattern::write, "psync");
  p.threads = 0;
  EXPECT_THROW(validate_io_plan(p), UsageError);
  p = small_plan(dir.path(), IoPattern::write, "psync");
  p.io_bytes = 1000;  // not a multiple of any logical block
  EXPECT_THROW(validate_io_plan(p), UsageError);
  p.buffered = true;  // fine through the page cache
  EXPECT_NO_THROW(validate_io_plan(p));
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace xb
