// The gdsio dialect (src/dialects/gdsio.hpp) against the seed document's own output
// (shared/seeds/002): given the raw figures of each of the seed's runs (KiB moved, ops, total time,
// average latency), the renderer must print the seed's line byte for byte, the Throughput computed
// by the job's own function (io_throughput_gib_per_s), not copied from the seed. The parser must
// map the seed's command lines onto the io plan.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "dialects/gdsio.hpp"
#include "jobs/io/io_config.hpp"
#include "jobs/io/io_job.hpp"

namespace xb {
namespace {

struct SeedRun {
  IoPattern pattern;
  IoTransfer transfer;
  std::uint64_t moved_kib;
  std::uint64_t ops;
  double seconds;
  double avg_latency_us;
  const char* line;  // verbatim from the seed
};

// Every run of the seed: 4 threads, -s 1g, -i 1m (so 4194304 KiB asked for).
const SeedRun kSeedRuns[] = {
    {IoPattern::write, IoTransfer::cpu, 4156416, 4059, 3.777586, 3721.307952,
     "IoType: WRITE XferType: CPUONLY Threads: 4 DataSetSize: 4156416/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "1.049312 GiB/sec, Avg_Latency: 3721.307952 usecs ops: 4059 total_time 3.777586 secs"},
    {IoPattern::read, IoTransfer::cpu, 4069376, 3974, 1.438394, 1443.841342,
     "IoType: READ XferType: CPUONLY Threads: 4 DataSetSize: 4069376/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "2.698050 GiB/sec, Avg_Latency: 1443.841342 usecs ops: 3974 total_time 1.438394 secs"},
    {IoPattern::read, IoTransfer::cpu, 4187136, 4089, 1.237170, 1209.149901,
     "IoType: READ XferType: CPUONLY Threads: 4 DataSetSize: 4187136/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "3.227660 GiB/sec, Avg_Latency: 1209.149901 usecs ops: 4089 total_time 1.237170 secs"},
    {IoPattern::write, IoTransfer::cpu_gpu, 4191232, 4093, 3.788999, 3702.944992,
     "IoType: WRITE XferType: CPU_GPU Threads: 4 DataSetSize: 4191232/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "1.054915 GiB/sec, Avg_Latency: 3702.944992 usecs ops: 4093 total_time 3.788999 secs"},
    {IoPattern::read, IoTransfer::cpu_gpu, 4178944, 4081, 1.271236, 1244.475969,
     "IoType: READ XferType: CPU_GPU Threads: 4 DataSetSize: 4178944/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "3.135021 GiB/sec, Avg_Latency: 1244.475969 usecs ops: 4081 total_time 1.271236 secs"},
    // The seed breaks this line before its last figure (a wrapped terminal); gdsio prints one line.
    {IoPattern::read, IoTransfer::cpu_gpu, 4188160, 4090, 1.251659, 1223.118288,
     "IoType: READ XferType: CPU_GPU Threads: 4 DataSetSize: 4188160/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "3.191077 GiB/sec, Avg_Latency: 1223.118288 usecs ops: 4090 total_time 1.251659 secs"},
    {IoPattern::write, IoTransfer::gpu_direct, 4184064, 4086, 3.806913, 3726.404280,
     "IoType: WRITE XferType: GPUD Threads: 4 DataSetSize: 4184064/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "1.048155 GiB/sec, Avg_Latency: 3726.404280 usecs ops: 4086 total_time 3.806913 secs"},
    {IoPattern::read, IoTransfer::gpu_direct, 4179968, 4082, 1.251597, 1224.346146,
     "IoType: READ XferType: GPUD Threads: 4 DataSetSize: 4179968/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "3.184993 GiB/sec, Avg_Latency: 1224.346146 usecs ops: 4082 total_time 1.251597 secs"},
    {IoPattern::read, IoTransfer::gpu_direct, 4190208, 4092, 1.237550, 1208.627088,
     "IoType: READ XferType: GPUD Threads: 4 DataSetSize: 4190208/4194304(KiB) IOSize: 1024(KiB) Throughput: "
     "3.229036 GiB/sec, Avg_Latency: 1208.627088 usecs ops: 4092 total_time 1.237550 secs"},
};

// The io job's record for a seed run: 4 threads of 1 GiB in 1 MiB IOs, no mixed reads.
IoConfig io_config_of(const SeedRun& run) {
  IoConfig c;
  c.rw = to_string(run.pattern);
  c.transfer = to_string(run.transfer);
  c.threads = 4;
  c.size_per_thread_requested = std::uint64_t{1} << 30;
  c.data_set_requested = std::uint64_t{4} << 30;
  c.io_size = std::uint64_t{1} << 20;
  c.io_size_min = std::uint64_t{1} << 20;
  return c;
}

// An io job result holding the seed run's raw figures, built as run_io builds its own.
CaseResult result_of(const SeedRun& run) {
  CaseResult r;
  r.job = "io";
  r.config = io_config_of(run);
  const std::uint64_t bytes = run.moved_kib * 1024;
  r.metrics = {{"throughput", io_throughput_gib_per_s(bytes, run.seconds), "GiB/s", ""},
               {"ops", static_cast<double>(run.ops), "IOs", ""},
               {"bytes", static_cast<double>(bytes), "B", ""},
               {"wall_time", run.seconds, "s", ""},
               {"latency_avg", run.avg_latency_us, "us", ""}};
  return r;
}

TEST(GdsioGolden, RendersEverySeedLineFromItsRawFigures) {
  for (const SeedRun& run : kSeedRuns) EXPECT_EQ(render_gdsio(result_of(run)), std::string(run.line) + "\n");
}

TEST(GdsioGolden, ThroughputIsGibPerSecondOfTheBytesMoved) {
  // 4156416 KiB / 3.777586 s = 1.049312 GiB/s (seeds/README.md).
  EXPECT_NEAR(io_throughput_gib_per_s(4156416ull * 1024, 3.777586), 1.049312, 5e-7);
  EXPECT_EQ(io_throughput_gib_per_s(1, 0.0), 0.0);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string word;
  for (char c : s) {
    if (c == ' ') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

TEST(GdsioGolden, ParsesTheSeedsCommandLines) {
  // "gdsio -D /mnt/nvme1n1/gdstest -d 0 -w 4 -x 1 -I 1 -s 1g -i 1m -V"
  GdsioRequest w = parse_gdsio(split("-D /mnt/nvme1n1/gdstest -d 0 -w 4 -x 1 -I 1 -s 1g -i 1m -V"));
  EXPECT_EQ(w.plan.directory, "/mnt/nvme1n1/gdstest");
  EXPECT_EQ(w.plan.device, 0);
  EXPECT_EQ(w.plan.threads, 4u);
  EXPECT_EQ(w.plan.transfer, IoTransfer::cpu);
  EXPECT_EQ(w.plan.pattern, IoPattern::write);
  EXPECT_EQ(w.plan.file_bytes, std::uint64_t{1} << 30);
  EXPECT_EQ(w.plan.io_bytes, std::uint64_t{1} << 20);
  EXPECT_EQ(w.plan.queue_depth, 1u);  // gdsio's threads keep one IO in flight
  EXPECT_TRUE(w.verify_after_write);
  EXPECT_FALSE(w.plan.verify);
  const IoPlan back = gdsio_readback_plan(w.plan);
  EXPECT_EQ(back.pattern, IoPattern::read);
  EXPECT_TRUE(back.verify);
  EXPECT_EQ(back.transfer, IoTransfer::cpu);

  EXPECT_EQ(parse_gdsio(split("-D /d -w 4 -x 2 -I 0 -s 1g -i 1m")).plan.transfer, IoTransfer::cpu_gpu);
  EXPECT_EQ(parse_gdsio(split("-D /d -w 4 -x 0 -I 0 -s 1g -i 1m")).plan.transfer, IoTransfer::gpu_direct);
  const GdsioRequest rr = parse_gdsio(split("-f /d/f -w 2 -x 1 -I 2 -s 1m -i 4k -V"));
  EXPECT_EQ(rr.plan.pattern, IoPattern::randread);
  EXPECT_TRUE(rr.plan.verify);  // -V on a read run checks what it reads
  EXPECT_FALSE(rr.verify_after_write);
  EXPECT_EQ(gdsio_readback_plan(parse_gdsio(split("-D /d -x 1 -I 3 -s 1m -i 4k")).plan).pattern, IoPattern::randread);
  EXPECT_THROW(parse_gdsio(split("-D /d -x 8 -I 0 -s 1m -i 4k")), UsageError);
  EXPECT_THROW(parse_gdsio(split("-D /d -x 1 -I 4 -s 1m -i 4k")), UsageError);
}

TEST(GdsioGolden, EveryTransferTypeHasGdsiosNumberAndName) {
  const std::pair<IoTransfer, const char*> want[] = {
      {IoTransfer::gpu_direct, "GPUD"},           {IoTransfer::cpu, "CPUONLY"},
      {IoTransfer::cpu_gpu, "CPU_GPU"},           {IoTransfer::cpu_async_gpu, "CPU_ASYNC_GPU"},
      {IoTransfer::cpu_cached_gpu, "CPU_CACHED_GPU"}, {IoTransfer::gpu_direct_async, "GPU_ASYNC"},
      {IoTransfer::gpu_batch, "GPU_BATCH"},       {IoTransfer::gpu_batch_stream, "GPU_BATCH_STREAM"}};
  for (int x = 0; x < 8; ++x) {
    const auto plan = parse_gdsio(split("-D /d -I 0 -s 1m -x " + std::to_string(x))).plan;
    EXPECT_EQ(plan.transfer, want[x].first) << x;
    EXPECT_EQ(gdsio_xfer_type(plan.transfer), want[x].second) << x;
  }
}

TEST(GdsioGolden, OptionsLeftOutTakeGdsiosDefaults) {
  const GdsioRequest r = parse_gdsio(split("-D /d -s 1m"));
  EXPECT_EQ(r.plan.transfer, IoTransfer::gpu_direct);  // -x 0
  EXPECT_EQ(r.plan.pattern, IoPattern::read);          // -I 0
  EXPECT_EQ(r.plan.io_bytes, 4096u);                   // -i 4K
  EXPECT_EQ(r.plan.threads, 1u);
  EXPECT_EQ(r.plan.device, 0);
  EXPECT_EQ(r.plan.offset, 0u);
  EXPECT_EQ(r.plan.seconds, 0u);
  EXPECT_FALSE(r.plan.buffered);
  EXPECT_TRUE(r.plan.register_buffers);
  EXPECT_EQ(r.plan.name_prefix, "gdsio");  // -D's files are gdsio.0 ... gdsio.N-1
  EXPECT_TRUE(r.plan.shared_size);         // -f: the threads share -s
  EXPECT_FALSE(r.plan.order_seed.has_value());
  // Writing needs a size; reading takes the files' own when it is left out.
  EXPECT_THROW(parse_gdsio(split("-D /d -I 1")), UsageError);
}

TEST(GdsioGolden, EveryOptionMapsOntoThePlan) {
  const GdsioRequest r =
      parse_gdsio(split("-f /d/f -d 3 -n 0 -w 8 -s 2g -o 1m -i 4k:64k:4k -p -b -x 4 -B 16 -I 2 -T 0 -k 3456 -a 8k -M 70 "
                        "-J -O 1 -R -F"));
  const IoPlan& p = r.plan;
  EXPECT_EQ(p.file, "/d/f");
  EXPECT_EQ(p.device, 3);
  EXPECT_EQ(p.numa_node, 0);
  EXPECT_EQ(p.threads, 8u);
  EXPECT_EQ(p.file_bytes, std::uint64_t{2} << 30);
  EXPECT_EQ(p.offset, 1u << 20);
  EXPECT_EQ(p.io_min_bytes, 4096u);
  EXPECT_EQ(p.io_bytes, 65536u);
  EXPECT_EQ(p.io_step_bytes, 4096u);
  EXPECT_TRUE(r.nvlinks);
  EXPECT_FALSE(p.register_buffers);
  EXPECT_EQ(p.transfer, IoTransfer::cpu_cached_gpu);
  EXPECT_EQ(r.batch_size, 16u);
  EXPECT_EQ(p.pattern, IoPattern::randread);
  EXPECT_EQ(p.seconds, 0u);  // -T 0: until the data set is done
  EXPECT_EQ(p.order_seed, 3456u);
  EXPECT_EQ(p.random_alignment, 8192u);
  EXPECT_EQ(p.read_percent, 70u);
  EXPECT_TRUE(r.per_job_stats);
  EXPECT_TRUE(p.buffered);  // -O 1
  EXPECT_TRUE(r.missing.empty());
  // -U: any byte, and so no O_DIRECT (said on stderr).
  const GdsioRequest u = parse_gdsio(split("-D /d -x 1 -I 3 -s 1m -U"));
  EXPECT_EQ(u.plan.random_alignment, 1u);
  EXPECT_TRUE(u.plan.buffered);
  ASSERT_EQ(u.notes.size(), 1u);
  EXPECT_NE(u.notes[0].find("-U"), std::string::npos);
  // What needs hardware absent everywhere xferbench runs is exit 3, never bad input.
  EXPECT_NE(parse_gdsio(split("-D /d -x 1 -s 1m -P rdma://10.0.0.1")).missing.find("-P"), std::string::npos);
  EXPECT_NE(parse_gdsio(split("-D /d -x 0 -s 1m -m 2")).missing.find("-m 2 (cudaMallocHost)"), std::string::npos);
  EXPECT_TRUE(parse_gdsio(split("-D /d -x 2 -s 1m -m 2")).missing.empty());  // unused by the bounce types
  for (const char* bad : {"-D /d -s 1m -m 5", "-D /d -s 1m -M 101", "-D /d -s 1m -O 2", "-D /d -s 1m -i 4k:8k",
                          "-D /d -s 1m -B 0", "-D /d -s 1m -k x"}) {
    EXPECT_THROW(parse_gdsio(split(bad)), UsageError) << bad;
  }
}

TEST(GdsioGolden, MixedRunsAndDrawnSizesKeepTheLinesMeaning) {
  CaseResult r = result_of(kSeedRuns[0]);
  IoConfig c = io_config_of(kSeedRuns[0]);
  c.read_percent = 70;
  c.rw = "randwrite";
  c.io_size_min = 4096;
  r.config = c;
  // 4059 IOs moved 4156416 KiB: the mean IO is 1024 KiB.
  EXPECT_EQ(render_gdsio(r).rfind("IoType: RANDRW XferType: CPUONLY Threads: 4 DataSetSize: 4156416/4194304(KiB) "
                                  "IOSize: 1024(KiB)",
                                  0),
            0u)
      << render_gdsio(r);
  c.rw = "read";
  r.config = c;
  r.metrics[1].value = 8118;  // twice the IOs for the same bytes: half the mean size
  EXPECT_NE(render_gdsio(r).find("IoType: RW "), std::string::npos);
  EXPECT_NE(render_gdsio(r).find("IOSize: 512(KiB)"), std::string::npos) << render_gdsio(r);
}

}  // namespace
}  // namespace xb
