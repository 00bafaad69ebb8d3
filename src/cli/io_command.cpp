// `xferbench io`: the native command line of the io job (file IO through psync, libaio, io_uring).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "cli/plan_options.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/sweep_runs.hpp"
#include "core/error.hpp"
#include "core/sweep.hpp"
#include "jobs/io/io_job.hpp"
#include "storage/io_engine.hpp"

namespace xb {
namespace {

int run_io_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Read and write files through an IO engine and measure throughput, IOPS and latency", "io"};
  PlanOptions o(app);
  IoPlan p;
  std::string backend_name;
  std::vector<std::uint64_t> io_sizes, depths;
  std::uint64_t rounds = 1;
  o.text("-D,--dir", p.directory, "directory: one file per thread (xferbench-io.N)");
  o.text("-f,--file", p.file, "one file; thread t works on its t-th region of -s bytes");
  // -w 0 is the job's rule to word ("expected a thread count from 1 to …"), so parse wide here.
  o.count("-w,--threads", p.threads, "1", 0, 1u << 20, "threads, each with its own engine (default 1)");
  o.choice("--rw", p.pattern, "read", io_pattern_from, "read, write, randread or randwrite",
           "read, write, randread or randwrite (default read)");
  o.size("-s,--size", p.file_bytes, "1G", "bytes per thread (default 1G), rounded down to whole IOs");
  o.sizes("-i,--io-size", io_sizes, "1M", "bytes per IO, or a sweep: 4K,64K or 4K:1M[:FACTOR], a case each (default 1M)");
  o.text("--engine", p.engine, fmt::format("{} (default {})", io_engine_names(), IoPlan{}.engine));
  o.later("--qd", "1", "IOs in flight per thread, or a sweep: 1,8,32 or 1:64[:FACTOR] (default 1; psync always 1)",
          [&](std::string_view v, std::string_view f) { depths = parse_count_sweep(v, f, 0, 1u << 20); });
  o.repetitions(rounds);
  o.flag("--buffered", p.buffered, "through the page cache (default O_DIRECT)");
  o.flag("--verify", p.verify, "read runs: check every byte against the pattern a write run left");
  o.flag("--keep", p.keep, "write runs: keep the files a failed run created (default: removed)");
  o.count("-T,--time", p.seconds, "", 1, 1u << 30, "run for this many seconds, looping over the files (default: one pass)");
  o.size("--offset", p.offset, "", "where the regions start in every file (default 0)");
  // A loop, not std::views::transform: clang (the fuzz build) cannot take libstdc++ 12's ranges.
  std::vector<std::string_view> transfer_names;
  for (const IoTransfer t : kIoTransfers) transfer_names.push_back(to_string(t));
  o.choice("--xfer", p.transfer, "cpu", io_transfer_from, fmt::format("one of {}", fmt::join(transfer_names, ", ")),
           "cpu (host buffers, default); cpu-gpu, cpu-async-gpu, cpu-cached-gpu (pinned bounce buffer <-> device "
           "memory: copy before the next IO, overlapped, through the page cache); gpu-direct, gpu-direct-async, "
           "gpu-batch, gpu-batch-stream (cuFile)");
  o.text("--backend", backend_name, "device backend of the device transfer types (default: an accelerator, else cpu)");
  o.count("--device", p.device, "0", 0, 1023, "device index for the device transfer types (default 0)");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  flags.load_expectations();
  // Every flag before anything about the files: a missing block or file is a run's failure (exit 1)
  // and must not hide a bad --format or -o (exit 2).
  flags.resolve();
  o.convert();
  if (p.verify && is_write(p.pattern)) {
    throw UsageError(fmt::format("--verify: checks what a read run reads; use it with --rw read or randread "
                                 "(a write run always writes the verifiable pattern)"));
  }
  // Only the transfer types that involve a device need a backend.
  Backend* backend = nullptr;
  std::string why_cpu;
  if (uses_device(p.transfer)) {
    backend = &ctx.registry.choose(backend_name, &why_cpu);
  } else if (!backend_name.empty()) {
    throw UsageError(fmt::format("--backend {}: only used with a device transfer type (--xfer cpu-gpu, ...)", backend_name));
  }
  // Every IO size × every queue depth, each a case (core/sweep.hpp), each checked before any runs.
  const std::string& sizes_text = o.value_of("-i");
  const std::string& depths_text = o.value_of("--qd");
  if (io_sizes.size() * depths.size() > kMaxSweepPoints) {
    throw UsageError(fmt::format("-i {} and --qd {}: {} points, at most {} in a sweep", sizes_text, depths_text,
                                 io_sizes.size() * depths.size(), kMaxSweepPoints));
  }
  if (depths.size() > 1 && p.engine == "psync") {
    throw UsageError(fmt::format("--qd {}: psync has one IO in flight; a sweep of depths needs libaio or io_uring", depths_text));
  }
  std::vector<IoPlan> plans;
  for (const IoPlan& sized : sweep_plans(p, io_sizes, [](IoPlan& q, std::uint64_t s) { q.io_bytes = s; }, [](const IoPlan&) {})) {
    for (IoPlan& q : sweep_plans(sized, depths,
                                 [](IoPlan& r, std::uint64_t d) { r.queue_depth = static_cast<unsigned>(d); },
                                 [&](const IoPlan& r) { validate_io_plan(r, backend); })) {
      plans.push_back(std::move(q));
    }
  }
  if (!why_cpu.empty() && is_bounce(p.transfer) && !flags.out.quiet) {
    ctx.err << "xferbench io: device memory is a cpu backend arena (" << why_cpu << ")\n";
  }
  return run_job_command(ctx, flags, backend, [&](JobContext& job) { return run_each(in_rounds(plans, rounds), job); });
}

}  // namespace

extern const Command kIoCommand{"io", "file IO through psync, libaio or io_uring: throughput, IOPS, latency",
                                run_io_command};

}  // namespace xb
