// The kv job in process: real files under /var/tmp, the real cpu backend. Dump then verified load
// for every sync policy into host and device memory; the layout on disk; a corrupted byte located;
// missing, short and leftover-temporary blocks. Timings are never asserted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "jobs/kv/kv_config.hpp"
#include "jobs/kv/kv_job.hpp"
#include "support/job_helpers.hpp"
#include "support/temp_dir.hpp"
#include "support/wrapped_cpu_backend.hpp"
#include "storage/kv_store.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

using test::TempDir;
using test::metric;
using test::flip_byte;
using test::error_of;

KvPlan small_plan(const std::filesystem::path& store, KvOp op) {
  KvPlan p;
  p.op = op;
  p.store = store;
  p.blocks = 24;
  p.block_bytes = 64u << 10;
  p.threads = 3;
  return p;
}

// The store holds exactly blocks [0, n): STORE/xx/yy/xxyy… for each, nothing else (no temporaries).
void expect_layout(const TempDir& dir, std::uint64_t n, std::uint64_t block_bytes) {
  const std::regex dir1("[0-9a-f]{2}"), dir2("[0-9a-f]{2}/[0-9a-f]{2}"),
      file("([0-9a-f]{2})/([0-9a-f]{2})/([0-9a-f]{16})");
  std::set<std::string> expected;
  for (std::uint64_t id = 0; id < n; ++id) {
    expected.insert(std::filesystem::relative(kv_block_path(dir.path(), id), dir.path()).string());
  }
  std::set<std::string> files;
  for (const auto& e : dir.tree()) {
    std::smatch m;
    if (std::regex_match(e, dir1) || std::regex_match(e, dir2)) continue;
    ASSERT_TRUE(std::regex_match(e, m, file)) << "unexpected entry " << e;
    EXPECT_EQ(m[3].str().substr(0, 2), m[1].str()) << e;
    EXPECT_EQ(m[3].str().substr(2, 2), m[2].str()) << e;
    EXPECT_EQ(std::filesystem::file_size(dir.path() / e), block_bytes) << e;
    files.insert(e);
  }
  EXPECT_EQ(files, expected);
}

// The rates a real run stores follow from the same result's totals (kv_metrics_test.cpp checks
// the formulas on known inputs; this checks that run_kv hands them its own totals). The tolerance is
// rounding only: x * (1 / wall) against x / wall.
void expect_rates_follow_from_totals(const CaseResult& r) {
  const double wall = metric(r, "wall_time"), blocks = metric(r, "blocks"), bytes = metric(r, "bytes");
  ASSERT_GT(wall, 0);
  constexpr double kRounding = 1e-12;
  const auto expect_rel = [&](const char* name, double expected) {
    EXPECT_NEAR(metric(r, name), expected, expected * kRounding) << name;
  };
  expect_rel("blocks_per_s", blocks / wall);
  expect_rel("bandwidth", bytes / wall / 1073741824.0);
  expect_rel("bandwidth_decimal", bytes / wall / 1e9);
  // Every block lies inside the run: none took longer than the wall time.
  EXPECT_LE(metric(r, "latency_max"), wall * 1e6);
}

class KvRoundTrip : public ::testing::TestWithParam<std::tuple<KvSync, KvTarget>> {};

TEST_P(KvRoundTrip, DumpsThenLoadsBackVerified) {
  const auto [sync, target] = GetParam();
  TempDir dir;
  auto backend = make_cpu_backend();
  KvPlan d = small_plan(dir.path(), KvOp::dump);
  d.sync = sync;
  const CaseResult dr = test::run_one(d, nullptr);
  EXPECT_EQ(dr.job, "kv");
  EXPECT_EQ(metric(dr, "blocks"), 24);
  EXPECT_EQ(metric(dr, "bytes"), 24.0 * (64 << 10));
  EXPECT_GT(metric(dr, "bandwidth"), 0);
  EXPECT_GT(metric(dr, "blocks_per_s"), 0);
  EXPECT_LE(metric(dr, "latency_min"), metric(dr, "latency_p50"));
  EXPECT_LE(metric(dr, "latency_p50"), metric(dr, "latency_p90"));
  EXPECT_LE(metric(dr, "latency_p99"), metric(dr, "latency_p99.9"));
  EXPECT_LE(metric(dr, "latency_p99.9"), metric(dr, "latency_max"));
  EXPECT_EQ(dr.config.at("sync"), std::string(to_string(sync)));
  EXPECT_EQ(dr.config.at("direct"), true);
  // The typed record (item 7) holds every key the job wrote, no more.
  EXPECT_EQ(nlohmann::json(dr.config.get<KvConfig>()), dr.config) << dr.config.dump();
  expect_rates_follow_from_totals(dr);
  // Only --sync end runs the end-of-run syncfs; it is part of the wall time.
  if (sync == KvSync::end) {
    EXPECT_GT(metric(dr, "sync_time"), 0);
    EXPECT_LE(metric(dr, "sync_time"), metric(dr, "wall_time"));
  } else {
    EXPECT_EQ(metric(dr, "sync_time"), 0.0);
  }
  expect_layout(dir, 24, 64u << 10);

  KvPlan l = small_plan(dir.path(), KvOp::load);
  l.target = target;
  l.verify = true;
  const CaseResult lr = test::run_one(l, backend.get());
  EXPECT_EQ(metric(lr, "blocks"), 24);
  EXPECT_EQ(lr.config.at("to"), std::string(to_string(target)));
  EXPECT_EQ(nlohmann::json(lr.config.get<KvConfig>()), lr.config) << lr.config.dump();
  EXPECT_EQ(lr.label("to"), target == KvTarget::device ? "cpu::device::0" : "host");
  EXPECT_GT(metric(lr, "latency_p50"), 0);
  expect_rates_follow_from_totals(lr);
  EXPECT_EQ(lr.find_metric("sync_time"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(SyncAndTarget, KvRoundTrip,
                         ::testing::Combine(::testing::Values(KvSync::none, KvSync::block, KvSync::end),
                                            ::testing::Values(KvTarget::host, KvTarget::device)),
                         [](const auto& param_info) {
                           return std::string(to_string(std::get<0>(param_info.param))) + "_to_" +
                                  std::string(to_string(std::get<1>(param_info.param)));
                         });

TEST(KvJob, BufferedOddBlocksAndPassesRoundTrip) {
  TempDir dir;
  KvPlan d = small_plan(dir.path(), KvOp::dump);
  d.buffered = true;
  d.block_bytes = 1000;  // not a logical block: fine through the page cache
  d.passes = 3;
  d.threads = 5;
  EXPECT_EQ(metric(test::run_one(d, nullptr), "blocks"), 72);
  expect_layout(dir, 24, 1000);
  KvPlan l = d;
  l.op = KvOp::load;
  l.verify = true;
  EXPECT_EQ(metric(test::run_one(l, nullptr), "bytes"), 72.0 * 1000);
}

TEST(KvJob, CorruptedByteIsLocatedByBlockFileAndOffset) {
  for (KvTarget target : {KvTarget::host, KvTarget::device}) {
    TempDir dir;
    auto backend = make_cpu_backend();
    test::run_one(small_plan(dir.path(), KvOp::dump), nullptr);
    const auto victim = kv_block_path(dir.path(), 5);
    flip_byte(victim, 12345);
    KvPlan l = small_plan(dir.path(), KvOp::load);
    l.target = target;
    l.verify = true;
    const std::string e = error_of([&] { test::run_one(l, backend.get()); });
    EXPECT_NE(e.find("verify failed: block 5 (" + victim.string() + ") byte at offset 12345 "), std::string::npos) << e;
    // Without --verify the same load passes: the check is what finds it.
    l.verify = false;
    EXPECT_EQ(error_of([&] { test::run_one(l, backend.get()); }), "");
  }
}

// A load into device memory is verified where the data landed, not in the host buffer it was read
// into: a stream that lands each copy with its first byte one off (a device whose copies go wrong)
// fails --verify although every file and every host buffer is right.
TEST(KvJob, ALoadIntoDeviceMemoryIsVerifiedInDeviceMemory) {
  class OffByOneLanding final : public test::ForwardingStream {
   public:
    using ForwardingStream::ForwardingStream;
    void copy(const CopyOp& op) override {
      real().copy(op);
      real().synchronize();
      auto* d = static_cast<std::uint8_t*>(op.dst);
      d[0] = static_cast<std::uint8_t>(static_cast<const std::uint8_t*>(op.src)[0] + 1);
    }
  };
  test::CpuWrap wrap;
  wrap.stream = [](std::unique_ptr<Stream> real, std::string_view) -> std::unique_ptr<Stream> {
    return std::make_unique<OffByOneLanding>(std::move(real));
  };
  auto backend = test::make_wrapped_cpu_backend(std::move(wrap));
  TempDir dir;
  test::run_one(small_plan(dir.path(), KvOp::dump), nullptr);
  KvPlan l = small_plan(dir.path(), KvOp::load);
  l.target = KvTarget::device;
  l.verify = true;
  const std::string e = error_of([&] { test::run_one(l, backend.get()); });
  EXPECT_NE(e.find("byte at offset 0 is "), std::string::npos) << e;
  EXPECT_NE(e.find("(read back from device memory)"), std::string::npos) << e;
  // Into host memory nothing goes through the stream: the same store loads verified.
  l.target = KvTarget::host;
  EXPECT_EQ(error_of([&] { test::run_one(l, backend.get()); }), "");
}

TEST(KvJob, AByteAtEitherEdgeOfABlockIsFound) {
  // The first and the last byte of a 64 KiB block: a check a byte short or late misses one.
  TempDir dir;
  test::run_one(small_plan(dir.path(), KvOp::dump), nullptr);
  const auto victim = kv_block_path(dir.path(), 7);
  for (const std::uint64_t offset : {0ull, (64ull << 10) - 1}) {
    flip_byte(victim, offset);
    KvPlan l = small_plan(dir.path(), KvOp::load);
    l.verify = true;
    const std::string e = error_of([&] { test::run_one(l, nullptr); });
    EXPECT_NE(e.find("verify failed: block 7 (" + victim.string() + ") byte at offset " + std::to_string(offset) + " "),
              std::string::npos)
        << e;
    flip_byte(victim, offset);
  }
  KvPlan l = small_plan(dir.path(), KvOp::load);
  l.verify = true;
  EXPECT_EQ(error_of([&] { test::run_one(l, nullptr); }), "");
}

TEST(KvJob, SwappedBlockFilesAreCaught) {
  TempDir dir;
  test::run_one(small_plan(dir.path(), KvOp::dump), nullptr);
  std::filesystem::copy_file(kv_block_path(dir.path(), 1), kv_block_path(dir.path(), 2),
                             std::filesystem::copy_options::overwrite_existing);
  KvPlan l = small_plan(dir.path(), KvOp::load);
  l.verify = true;
  const std::string e = error_of([&] { test::run_one(l, nullptr); });
  EXPECT_NE(e.find("verify failed: block 2 ("), std::string::npos) << e;
}

TEST(KvJob, MissingBlockIsNamedFirstInBlockOrder) {
  TempDir dir;
  test::run_one(small_plan(dir.path(), KvOp::dump), nullptr);
  std::filesystem::remove(kv_block_path(dir.path(), 17));
  std::filesystem::remove(kv_block_path(dir.path(), 9));
  const std::string e = error_of([&] { test::run_one(small_plan(dir.path(), KvOp::load), nullptr); });
  EXPECT_NE(e.find("block 9 is missing from the store: " + kv_block_path(dir.path(), 9).string()), std::string::npos)
      << e;
}

TEST(KvJob, ShortBlockIsNamedWithBothSizes) {
  TempDir dir;
  test::run_one(small_plan(dir.path(), KvOp::dump), nullptr);
  std::filesystem::resize_file(kv_block_path(dir.path(), 4), 4096);
  const std::string e = error_of([&] { test::run_one(small_plan(dir.path(), KvOp::load), nullptr); });
  EXPECT_NE(e.find("block 4 (" + kv_block_path(dir.path(), 4).string() + ") is 4096 bytes, expected"), std::string::npos)
      << e;
}

TEST(KvJob, LeftoverTemporaryIsNeverLoaded) {
  TempDir dir;
  KvPlan d = small_plan(dir.path(), KvOp::dump);
  test::run_one(d, nullptr);
  // A crash mid-dump: block 6's real name is gone, and a whole, valid-looking temporary of it is
  // left (the pattern a dump writes), under another process's temporary name.
  const auto real = kv_block_path(dir.path(), 6);
  std::filesystem::path leftover = real;
  leftover += ".tmp-99999.0";
  std::filesystem::rename(real, leftover);
  KvPlan l = small_plan(dir.path(), KvOp::load);
  l.verify = true;
  const std::string e = error_of([&] { test::run_one(l, nullptr); });
  EXPECT_NE(e.find("block 6 is missing from the store"), std::string::npos) << e;

  // Next to a whole store, a half-written temporary changes nothing: the load reads the blocks.
  test::run_one(d, nullptr);
  std::filesystem::resize_file(leftover, 100);
  EXPECT_EQ(error_of([&] { test::run_one(l, nullptr); }), "");
}

TEST(KvJob, BadPlansAreUsageErrorsNamingTheFlag) {
  TempDir dir;
  const auto usage = [&](KvPlan p) {
    try {
      validate_kv_plan(p, nullptr);
    } catch (const PlanError& e) {
      return e.text().worded(native_flag_words());
    } catch (const std::exception& e) {
      return std::string("not a usage error: ") + e.what();
    }
    return std::string();
  };
  KvPlan p = small_plan(dir.path(), KvOp::dump);
  p.blocks = 0;
  EXPECT_EQ(usage(p).rfind("-n 0:", 0), 0u) << usage(p);
  p = small_plan(dir.path(), KvOp::dump);
  p.threads = 0;
  EXPECT_EQ(usage(p).rfind("-w 0:", 0), 0u) << usage(p);
  p = small_plan(dir.path(), KvOp::dump);
  p.block_bytes = 1000;
  EXPECT_EQ(usage(p).rfind("--block 1000:", 0), 0u) << usage(p);
  p = small_plan(dir.path() / "nope", KvOp::dump);
  EXPECT_EQ(usage(p).rfind("--store", 0), 0u) << usage(p);
  EXPECT_TRUE(dir.tree().empty());
}

}  // namespace
}  // namespace xb
