// `xferbench copy`: the native command line of the copy job.
#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/plan_options.hpp"
#include "cli/sweep_runs.hpp"
#include "jobs/copy/copy_job.hpp"

namespace xb {
namespace {

// What --from/--to name: "device" or a host memory kind ("host" is pinned host memory).
struct CopyMemory {
  bool host = false;
  HostMemoryKind kind = HostMemoryKind::pinned;
};

std::optional<CopyMemory> copy_memory_from(std::string_view name) {
  if (name == "device") return CopyMemory{};
  if (name == "host") return CopyMemory{true, HostMemoryKind::pinned};
  if (auto k = host_memory_kind_from(name)) return CopyMemory{true, *k};
  return std::nullopt;
}

std::optional<CopyTopology> copy_topology_from(std::string_view name) {
  if (name == "per-device" || name == "gqa") return CopyTopology::per_device;
  if (name == "shared" || name == "mla") return CopyTopology::shared;
  return std::nullopt;
}

void set_direction(CopyPlan& p, CopyMemory from, CopyMemory to) {
  if (from.host && to.host) p.direction = CopyDirection::h2h;
  else if (from.host) p.direction = CopyDirection::h2d;
  else if (to.host) p.direction = CopyDirection::d2h;
  else p.direction = CopyDirection::d2d;
  p.host_kind = from.host ? from.kind : to.host ? to.kind : HostMemoryKind::pinned;
}

int run_copy_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Copy blocks between host and device memory and measure submit and completion times", "copy"};
  PlanOptions o(app);
  CopyPlan p;
  std::string backend_name;
  CopyMemory from, to;
  std::optional<int> devices;
  std::vector<std::uint64_t> sizes;
  std::uint64_t rounds = 1;
  const std::string memories = "device, host, pinned, pageable, shm, odirect or hugepage";
  o.text("--backend", backend_name, "cpu, cuda, acl (default: an accelerator if present, else cpu)");
  o.choice("--from", from, "pinned", copy_memory_from, memories, "device, host (pinned), pinned, pageable, shm, odirect, hugepage");
  o.choice("--to", to, "device", copy_memory_from, memories, "device, or a host memory kind as for --from");
  o.choice("--topology", p.topology, "per-device", copy_topology_from, "per-device or shared",
           "per-device (GQA) or shared (MLA: one shm buffer for all devices)");
  o.text("--engine", p.engine, "the backend's copy engine (cpu: memcpy, nt)");
  o.flag("--batch", p.batch, "submit each stream's blocks as one batch");
  o.count("--streams", p.streams, "4", 1, 256, "streams per device (default 4)");
  o.sizes("-s,--size", sizes, "4M", "block size, or a sweep: 4K,64K,1M or 4K:1M[:FACTOR], a case each (default 4M)");
  o.repetitions(rounds);
  o.count("-n,--blocks", p.blocks, "16", 1, 1u << 24, "blocks per device (default 16)");
  o.count("-i,--iterations", p.iterations, "32", 1, 100'000'000, "timed iterations (default 32)");
  o.count("--warmup", p.warmup, "4", 0, 1'000'000, "untimed iterations first (default 4)");
  o.count("-d,--devices", devices, "", 1, 1024, "devices, one process each (default: all the backend has)");
  o.count("-f,--fragments", p.fragments, "0", 0, 65536, "split each block into this many copies (default 0: whole)");
  o.flag("--verify", p.verify, "check every destination byte after the run");
  p.odirect_dir = "/var/tmp";
  o.text("--odirect-dir", p.odirect_dir, "directory for O_DIRECT backing files (default /var/tmp)");
  JobCommandFlags flags;
  flags.add_to(app);
  o.parse(args);
  flags.load_expectations();

  std::string why_cpu;
  Backend& backend = ctx.registry.choose(backend_name, &why_cpu);
  p.backend = std::string(backend.name());
  set_direction(p, from, to);
  p.devices = devices.value_or(std::max(1, backend.device_count()));
  const std::vector<CopyPlan> plans = sweep_plans(p, sizes, [](CopyPlan& q, std::uint64_t s) { q.block_bytes = s; },
                                                  [&](const CopyPlan& q) { validate_copy_plan(q, backend); });
  flags.resolve();
  if (!why_cpu.empty() && !flags.out.quiet) ctx.err << "xferbench: running on the cpu backend (" << why_cpu << ")\n";
  return run_job_command(ctx, flags, &backend,
                         [&](JobContext& job) { return run_each(in_rounds(plans, rounds), job); });
}

}  // namespace

extern const Command kCopyCommand{"copy", "host/device memory copies over streams (H2D, D2H, D2D, H2H)",
                                  run_copy_command};

}  // namespace xb
