// `xferbench io`: the native command line of the io job (file IO through psync, libaio, io_uring).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/sweep_runs.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "core/sweep.hpp"
#include "jobs/io/io_job.hpp"
#include "storage/io_engine.hpp"

namespace xb {
namespace {

struct IoArgs {
  std::string directory, file, threads = "1", rw = "read", size = "1G", io_size = "1M", engine = IoPlan{}.engine, qd = "1",
              seconds, xfer = "cpu", backend, device = "0", offset;
  std::string repetitions = "1";
  bool buffered = false, verify = false, keep = false;
};

IoPlan to_plan(const IoArgs& a) {
  IoPlan p;
  p.directory = a.directory;
  p.file = a.file;
  // -w 0 is the job's rule to word ("expected a thread count from 1 to …"), so parse wide here.
  p.threads = static_cast<unsigned>(parse_count(a.threads, "-w", 0, 1u << 20));
  const auto pattern = io_pattern_from(a.rw);
  if (!pattern) throw UsageError(fmt::format("--rw {}: expected read, write, randread or randwrite", a.rw));
  p.pattern = *pattern;
  p.file_bytes = parse_size(a.size, "-s");
  // io_bytes and queue_depth: one plan per point of -i and --qd (run_io_command)
  p.engine = a.engine;
  p.buffered = a.buffered;
  p.verify = a.verify;
  p.keep = a.keep;
  if (!a.seconds.empty()) p.seconds = parse_count(a.seconds, "-T", 1, 1u << 30);
  if (!a.offset.empty()) p.offset = parse_size(a.offset, "--offset");
  const auto transfer = io_transfer_from(a.xfer);
  if (!transfer) {
    std::string names;
    for (IoTransfer t : kIoTransfers) names += (names.empty() ? "" : ", ") + std::string(to_string(t));
    throw UsageError(fmt::format("--xfer {}: expected one of {}", a.xfer, names));
  }
  p.transfer = *transfer;
  p.device = static_cast<int>(parse_count(a.device, "--device", 0, 1023));
  if (p.verify && is_write(p.pattern)) {
    throw UsageError(fmt::format("--verify: checks what a read run reads; use it with --rw read or randread "
                                 "(a write run always writes the verifiable pattern)"));
  }
  return p;
}

int run_io_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Read and write files through an IO engine and measure throughput, IOPS and latency", "io"};
  IoArgs a;
  app.add_option("-D,--dir", a.directory, "directory: one file per thread (xferbench-io.N)");
  app.add_option("-f,--file", a.file, "one file; thread t works on its t-th region of -s bytes");
  app.add_option("-w,--threads", a.threads, "threads, each with its own engine (default 1)");
  app.add_option("--rw", a.rw, "read, write, randread or randwrite (default read)");
  app.add_option("-s,--size", a.size, "bytes per thread (default 1G), rounded down to whole IOs");
  app.add_option("-i,--io-size", a.io_size, "bytes per IO, or a sweep: 4K,64K or 4K:1M[:FACTOR], a case each (default 1M)");
  app.add_option("--engine", a.engine, fmt::format("{} (default {})", io_engine_names(), IoPlan{}.engine));
  app.add_option("--qd", a.qd, "IOs in flight per thread, or a sweep: 1,8,32 or 1:64[:FACTOR] (default 1; psync always 1)");
  add_repetitions_option(app, a.repetitions);
  app.add_flag("--buffered", a.buffered, "through the page cache (default O_DIRECT)");
  app.add_flag("--verify", a.verify, "read runs: check every byte against the pattern a write run left");
  app.add_flag("--keep", a.keep, "write runs: keep the files a failed run created (default: removed)");
  app.add_option("-T,--time", a.seconds, "run for this many seconds, looping over the files (default: one pass)");
  app.add_option("--offset", a.offset, "where the regions start in every file (default 0)");
  app.add_option("--xfer", a.xfer,
                 "cpu (host buffers, default); cpu-gpu, cpu-async-gpu, cpu-cached-gpu (pinned bounce buffer <-> device "
                 "memory: copy before the next IO, overlapped, through the page cache); gpu-direct, gpu-direct-async, "
                 "gpu-batch, gpu-batch-stream (cuFile)");
  app.add_option("--backend", a.backend, "device backend of the device transfer types (default: an accelerator, else cpu)");
  app.add_option("--device", a.device, "device index for the device transfer types (default 0)");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  flags.load_expectations();
  // Every flag before anything about the files: a missing block or file is a run's failure (exit 1)
  // and must not hide a bad --format or -o (exit 2).
  flags.resolve();

  const IoPlan plan = to_plan(a);
  // Only the transfer types that involve a device need a backend.
  Backend* backend = nullptr;
  std::string why_cpu;
  if (uses_device(plan.transfer)) {
    backend = &ctx.registry.choose(a.backend, &why_cpu);
  } else if (!a.backend.empty()) {
    throw UsageError(fmt::format("--backend {}: only used with a device transfer type (--xfer cpu-gpu, ...)", a.backend));
  }
  // Every IO size × every queue depth, each a case (core/sweep.hpp), each checked before any runs.
  const auto io_sizes = parse_size_sweep(a.io_size, "-i");
  const auto depths = parse_count_sweep(a.qd, "--qd", 0, 1u << 20);
  if (io_sizes.size() * depths.size() > kMaxSweepPoints) {
    throw UsageError(fmt::format("-i {} and --qd {}: {} points, at most {} in a sweep", a.io_size, a.qd,
                                 io_sizes.size() * depths.size(), kMaxSweepPoints));
  }
  if (depths.size() > 1 && plan.engine == "psync") {
    throw UsageError(fmt::format("--qd {}: psync has one IO in flight; a sweep of depths needs libaio or io_uring", a.qd));
  }
  std::vector<IoPlan> plans;
  for (const IoPlan& sized : sweep_plans(plan, io_sizes,
                                         [](IoPlan& p, std::uint64_t s) { p.io_bytes = s; }, [](const IoPlan&) {})) {
    for (IoPlan& p : sweep_plans(sized, depths,
                                 [](IoPlan& q, std::uint64_t d) { q.queue_depth = static_cast<unsigned>(d); },
                                 [&](const IoPlan& q) { validate_io_plan(q, backend); })) {
      plans.push_back(std::move(p));
    }
  }
  const std::uint64_t rounds = parse_repetitions(a.repetitions);
  if (!why_cpu.empty() && is_bounce(plan.transfer) && !flags.out.quiet) {
    ctx.err << "xferbench io: device memory is a cpu backend arena (" << why_cpu << ")\n";
  }
  return run_job_command(ctx, flags, backend, [&](JobContext& job) { return run_each(in_rounds(plans, rounds), job); });
}

}  // namespace

extern const Command kIoCommand{"io", "file IO through psync, libaio or io_uring: throughput, IOPS, latency",
                                run_io_command};

}  // namespace xb
