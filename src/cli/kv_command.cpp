// `xferbench kv dump|load`: the native command line of the kv job (the KV-cache block store).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/sweep_runs.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "core/sweep.hpp"
#include "jobs/kv/kv_job.hpp"

namespace xb {
namespace {

struct KvArgs {
  std::string op, store, blocks = "64", block = "2M", threads = "1", passes = "1", sync, to, backend = "cpu",
              device = "0", engine;
  std::string repetitions = "1";
  bool buffered = false, verify = false;
};

KvPlan to_plan(const KvArgs& a) {
  KvPlan p;
  if (a.op == "dump") p.op = KvOp::dump;
  else if (a.op == "load") p.op = KvOp::load;
  else if (a.op.empty()) throw UsageError("kv: expected dump or load first (xferbench kv dump|load --store DIR …)");
  else throw UsageError(fmt::format("kv {}: expected dump or load", a.op));
  p.store = a.store;
  // 0 is the job's rule to word ("expected … from 1 to …"), so parse wide here.
  p.blocks = parse_count(a.blocks, "-n", 0, std::uint64_t{1} << 40);
  // block_bytes: one plan per point of --block (run_kv_command)
  p.threads = static_cast<unsigned>(parse_count(a.threads, "-w", 0, 1u << 20));
  p.passes = parse_count(a.passes, "--passes", 0, std::uint64_t{1} << 40);
  if (!a.sync.empty()) {
    if (p.op != KvOp::dump) throw UsageError(fmt::format("--sync {}: applies to dump only", a.sync));
    const auto s = kv_sync_from(a.sync);
    if (!s) throw UsageError(fmt::format("--sync {}: expected none, block or end", a.sync));
    p.sync = *s;
  }
  if (!a.to.empty()) {
    if (p.op != KvOp::load) throw UsageError(fmt::format("--to {}: applies to load only", a.to));
    const auto t = kv_target_from(a.to);
    if (!t) throw UsageError(fmt::format("--to {}: expected host or device", a.to));
    p.target = *t;
  }
  p.backend = a.backend;
  p.device = static_cast<int>(parse_count(a.device, "--device", 0, 1u << 20));
  p.engine = a.engine;
  p.buffered = a.buffered;
  p.verify = a.verify;
  return p;
}

int run_kv_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Dump KV-cache blocks to a POSIX block store and load them back: blocks/s, bandwidth, latency", "kv"};
  KvArgs a;
  app.add_option("op", a.op, "dump or load");
  app.add_option("--store", a.store, "the store's directory (must exist): STORE/ab/cd/<hash of the block id>");
  app.add_option("-n,--blocks", a.blocks, "blocks, ids 0 .. n-1 (default 64)");
  app.add_option("--block", a.block, "bytes per block, or a sweep: 64K,2M or 64K:8M[:FACTOR], a case each (a load reads the size a dump left) (default 2M)");
  add_repetitions_option(app, a.repetitions);
  app.add_option("-w,--threads", a.threads, "threads sharing the block list (default 1)");
  app.add_option("--passes", a.passes, "times every block is dumped or loaded (default 1)");
  app.add_option("--sync", a.sync, "dump: none (default), block (fdatasync each before its rename), end (one syncfs)");
  app.add_option("--to", a.to, "load: host (default) or device (through a pinned buffer)");
  app.add_option("--backend", a.backend, "load --to device: the backend (default cpu)");
  app.add_option("--device", a.device, "load --to device: the device index (default 0)");
  app.add_option("--engine", a.engine, "load --to device: the backend's copy engine (default its first)");
  app.add_flag("--buffered", a.buffered, "through the page cache (default O_DIRECT)");
  app.add_flag("--verify", a.verify, "load: check every byte against the pattern the dump wrote");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  flags.load_expectations();
  // Every flag before anything about the files: a missing block or file is a run's failure (exit 1)
  // and must not hide a bad --format or -o (exit 2).
  flags.resolve();

  const KvPlan plan = to_plan(a);
  Backend* backend = plan.op == KvOp::load && plan.target == KvTarget::device ? &ctx.registry.get(plan.backend) : nullptr;
  const std::vector<std::uint64_t> blocks = parse_size_sweep(a.block, "--block");
  if (plan.op == KvOp::load && blocks.size() > 1) {
    throw UsageError(fmt::format("--block {}: a load reads the one block size its store holds; sweep dumps, or load "
                                 "each size from a store of its own", a.block));
  }
  const std::vector<KvPlan> plans = sweep_plans(plan, blocks,
                                                [](KvPlan& p, std::uint64_t s) { p.block_bytes = s; },
                                                [&](const KvPlan& p) { validate_kv_plan(p, backend); });
  const std::uint64_t rounds = parse_repetitions(a.repetitions);
  return run_job_command(ctx, flags, backend, [&](JobContext& job) { return run_each(in_rounds(plans, rounds), job); });
}

}  // namespace

extern const Command kKvCommand{"kv", "KV-cache blocks dumped to and loaded from a POSIX block store", run_kv_command};

}  // namespace xb
