// The dev-sandbox aio renderer (src/dialects/dev_sandbox_aio.hpp) on hand-built kv results, byte for
// byte. The seed (shared/seeds/000) names the aio sub-feature but prints no aio table, so the layout
// is the dialect's copy summary with one timing column per block (kRowFormat there); these goldens
// pin every figure of it: the title's thread count, Method, Size(KB), Count, the five block
// latencies and BW(GB/s), on both sides of each branch (dump/load, O_DIRECT/page cache, 1/n threads,
// whole/fractional KB).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dialects/dev_sandbox_aio.hpp"
#include "jobs/kv/kv_config.hpp"
#include "jobs/kv/kv_metrics.hpp"

namespace xb {
namespace {

const std::string kHeader =
    "  From              To                Method    Size(KB)  Count   Block(us)-(Min/Max/Avg/P50/P90)         "
    "BW(GB/s)\n";

// The kv job's record with what the renderer reads set (a dump syncs as `sync`; a load goes to host).
KvConfig kv_config(const std::string& op, bool direct, unsigned threads, std::uint64_t block_bytes,
                   const std::string& sync = "") {
  KvConfig c;
  c.op = op;
  c.direct = direct;
  c.threads = threads;
  c.block_bytes = block_bytes;
  if (op == "dump") {
    c.sync = sync;
  } else {
    c.to = "host";
  }
  return c;
}

// A kv result as the renderer reads it: the job's record and the metrics it prints.
CaseResult kv_case(const KvConfig& config, std::vector<std::pair<std::string, double>> metrics) {
  CaseResult r;
  r.job = "kv";
  r.config = config;
  for (auto& [name, value] : metrics) r.metrics.push_back({std::move(name), value, "", ""});
  return r;
}

// Latencies are rounded to whole us (812.4 -> 812, 2576.6 -> 2577), BW to three decimals; the
// stats column is Min / Max / Avg / P50 / P90 in that order, whatever order the metrics are in.
TEST(DevSandboxAioGolden, DumpOneThreadDirect) {
  const CaseResult r = kv_case(kv_config("dump", true, 1, 65536, "end"),
                               {{"bandwidth", 16.72946},
                                {"blocks", 12},
                                {"latency_p90", 1269.51},
                                {"latency_p50", 1112.0},
                                {"latency_avg", 1117.49},
                                {"latency_max", 2576.6},
                                {"latency_min", 812.4}});
  EXPECT_EQ(render_dev_sandbox_aio(r),
            "[[ aio_dump_to_posix_store ]] dump kv blocks from host to posix store with pwrite and O_DIRECT using 1 "
            "thread, sync end\n" +
                kHeader +
                "  host::all         posix::store      DIO-W1    64        12      812 / 2577 / 1117 / 1112 / 1270         "
                "16.729\n");
}

// Page cache: BUF-W<n>; a block size that is not whole KB prints three decimals (1536 B = 1.500).
TEST(DevSandboxAioGolden, LoadThreeThreadsBufferedFractionalKb) {
  const CaseResult r = kv_case(kv_config("load", false, 3, 1536),
                               {{"latency_min", 3.2},
                                {"latency_max", 40.7},
                                {"latency_avg", 9.61},
                                {"latency_p50", 8.0},
                                {"latency_p90", 15.49},
                                {"blocks", 72},
                                {"bandwidth", 0.1234567}});
  EXPECT_EQ(render_dev_sandbox_aio(r),
            "[[ aio_load_from_posix_store ]] load kv blocks from posix store to host with pread and page cache using 3 "
            "threads\n" +
                kHeader +
                "  posix::store      host::all         BUF-W3    1.500     72      3 / 41 / 10 / 8 / 15                    "
                "0.123\n");
}

// The figures come from the kv job's own metrics: 12 blocks of 64 MiB (0.75 GiB) in 48 ms is
// 15.625 GiB/s (BW is GiB/s, as the copy summary's), and 12 ms per block on every block.
TEST(DevSandboxAioGolden, FiguresAreTheKvJobsMetrics) {
  LatencyHistogram ns;
  for (int i = 0; i < 12; ++i) ns.record(12'000'000);
  CaseResult r;
  r.config = kv_config("dump", true, 3, 64u << 20, "none");
  r.metrics = kv_case_metrics({12, std::uint64_t{12} * (64u << 20), 48'000'000, 0}, ns, "pwrite");
  EXPECT_EQ(render_dev_sandbox_aio(r),
            "[[ aio_dump_to_posix_store ]] dump kv blocks from host to posix store with pwrite and O_DIRECT using 3 "
            "threads, sync none\n" +
                kHeader +
                "  host::all         posix::store      DIO-W3    65536     12      12000 / 12000 / 12000 / 12000 / 12000   "
                "15.625\n");
}

TEST(DevSandboxAioGolden, RendererNamesAMissingMetric) {
  const CaseResult r = kv_case(kv_config("load", true, 2, 4096),
                               {{"latency_min", 1}, {"latency_max", 1}, {"latency_avg", 1}, {"latency_p50", 1}});
  try {
    render_dev_sandbox_aio(r);
    FAIL() << "rendered without latency_p90";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()), "dev-sandbox aio renderer: the result lacks latency_p90");
  }
}

}  // namespace
}  // namespace xb
