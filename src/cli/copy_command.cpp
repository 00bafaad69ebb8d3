// `xferbench copy`: the native command line of the copy job.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/sweep_runs.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "core/sweep.hpp"
#include "jobs/copy/copy_job.hpp"

namespace xb {
namespace {

struct CopyArgs {
  std::string backend, from = "pinned", to = "device", topology = "per-device", engine;
  std::string repetitions = "1";
  std::string size = "4M", blocks = "16", iterations = "32", warmup = "4", devices, fragments = "0",
              streams = "4";
  std::string odirect_dir = "/var/tmp";
  bool batch = false, verify = false;
};

// --from/--to name a memory: "device" or a host memory kind ("host" is pinned host memory).
std::optional<HostMemoryKind> host_kind(const std::string& name, const char* flag) {
  if (name == "device") return std::nullopt;
  if (name == "host") return HostMemoryKind::pinned;
  if (auto k = host_memory_kind_from(name)) return k;
  throw UsageError(fmt::format("{} {}: expected device, host, pinned, pageable, shm, odirect or hugepage", flag, name));
}

CopyPlan to_plan(const CopyArgs& a, Backend& backend) {
  CopyPlan p;
  p.backend = std::string(backend.name());
  const auto from = host_kind(a.from, "--from");
  const auto to = host_kind(a.to, "--to");
  if (from && to) p.direction = CopyDirection::h2h;
  else if (from) p.direction = CopyDirection::h2d;
  else if (to) p.direction = CopyDirection::d2h;
  else p.direction = CopyDirection::d2d;
  p.host_kind = from ? *from : to ? *to : HostMemoryKind::pinned;
  if (a.topology == "per-device" || a.topology == "gqa") p.topology = CopyTopology::per_device;
  else if (a.topology == "shared" || a.topology == "mla") p.topology = CopyTopology::shared;
  else throw UsageError(fmt::format("--topology {}: expected per-device or shared", a.topology));
  p.engine = a.engine;
  p.batch = a.batch;
  // block_bytes: one plan per point of -s (sweep_plans)
  p.blocks = parse_count(a.blocks, "-n", 1, 1u << 24);
  p.iterations = parse_count(a.iterations, "-i", 1, 100'000'000);
  p.warmup = parse_count(a.warmup, "--warmup", 0, 1'000'000);
  p.devices = a.devices.empty() ? std::max(1, backend.device_count())
                                : static_cast<int>(parse_count(a.devices, "-d", 1, 1024));
  p.fragments = parse_count(a.fragments, "-f", 0, 65536);
  p.streams = static_cast<int>(parse_count(a.streams, "--streams", 1, 256));
  p.verify = a.verify;
  p.odirect_dir = a.odirect_dir;
  return p;
}

int run_copy_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Copy blocks between host and device memory and measure submit and completion times", "copy"};
  CopyArgs a;
  app.add_option("--backend", a.backend, "cpu, cuda, acl (default: an accelerator if present, else cpu)");
  app.add_option("--from", a.from, "device, host (pinned), pinned, pageable, shm, odirect, hugepage");
  app.add_option("--to", a.to, "device, or a host memory kind as for --from");
  app.add_option("--topology", a.topology, "per-device (GQA) or shared (MLA: one shm buffer for all devices)");
  app.add_option("--engine", a.engine, "the backend's copy engine (cpu: memcpy, nt)");
  app.add_flag("--batch", a.batch, "submit each stream's blocks as one batch");
  app.add_option("--streams", a.streams, "streams per device (default 4)");
  app.add_option("-s,--size", a.size, "block size, or a sweep: 4K,64K,1M or 4K:1M[:FACTOR], a case each (default 4M)");
  add_repetitions_option(app, a.repetitions);
  app.add_option("-n,--blocks", a.blocks, "blocks per device (default 16)");
  app.add_option("-i,--iterations", a.iterations, "timed iterations (default 32)");
  app.add_option("--warmup", a.warmup, "untimed iterations first (default 4)");
  app.add_option("-d,--devices", a.devices, "devices, one process each (default: all the backend has)");
  app.add_option("-f,--fragments", a.fragments, "split each block into this many copies (default 0: whole)");
  app.add_flag("--verify", a.verify, "check every destination byte after the run");
  app.add_option("--odirect-dir", a.odirect_dir, "directory for O_DIRECT backing files (default /var/tmp)");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  flags.load_expectations();

  std::string why_cpu;
  Backend& backend = ctx.registry.choose(a.backend, &why_cpu);
  const std::vector<CopyPlan> plans = sweep_plans(
      to_plan(a, backend), parse_size_sweep(a.size, "-s"), [](CopyPlan& p, std::uint64_t s) { p.block_bytes = s; },
      [&](const CopyPlan& p) { validate_copy_plan(p, backend); });
  const std::uint64_t rounds = parse_repetitions(a.repetitions);
  flags.resolve();
  if (!why_cpu.empty() && !flags.out.quiet) ctx.err << "xferbench: running on the cpu backend (" << why_cpu << ")\n";
  return run_job_command(ctx, flags, &backend,
                         [&](JobContext& job) { return run_each(in_rounds(plans, rounds), job); });
}

}  // namespace

extern const Command kCopyCommand{"copy", "host/device memory copies over streams (H2D, D2H, D2D, H2H)",
                                  run_copy_command};

}  // namespace xb
