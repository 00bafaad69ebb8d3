// `xferbench kv dump|load`: the native command line of the kv job (the KV-cache block store).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/args.hpp"
#include "cli/plan_options.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/sweep_runs.hpp"
#include "core/error.hpp"
#include "jobs/kv/kv_job.hpp"

namespace xb {
namespace {

// --sync applies to a dump, --to to a load: a misplaced one is named before its value is read.
void set_op_terms(KvPlan& p, const std::string& sync, const std::string& to) {
  if (!sync.empty()) {
    if (p.op != KvOp::dump) throw UsageError(fmt::format("--sync {}: applies to dump only", sync));
    const auto s = kv_sync_from(sync);
    if (!s) throw UsageError(fmt::format("--sync {}: expected none, block or end", sync));
    p.sync = *s;
  }
  if (!to.empty()) {
    if (p.op != KvOp::load) throw UsageError(fmt::format("--to {}: applies to load only", to));
    const auto t = kv_target_from(to);
    if (!t) throw UsageError(fmt::format("--to {}: expected host or device", to));
    p.target = *t;
  }
}

int run_kv_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Dump KV-cache blocks to a POSIX block store and load them back: blocks/s, bandwidth, latency", "kv"};
  PlanOptions o(app);
  KvPlan p;
  std::string op, sync, to;
  std::vector<std::uint64_t> blocks;
  std::uint64_t rounds = 1;
  o.text("op", op, "dump or load");
  o.text("--store", p.store, "the store's directory (must exist): STORE/ab/cd/<hash of the block id>");
  // 0 is the job's rule to word ("expected … from 1 to …"), so parse wide here.
  o.count("-n,--blocks", p.blocks, "64", 0, std::uint64_t{1} << 40, "blocks, ids 0 .. n-1 (default 64)");
  o.sizes("--block", blocks, "2M", "bytes per block, or a sweep: 64K,2M or 64K:8M[:FACTOR], a case each (a load reads the size a dump left) (default 2M)");
  o.repetitions(rounds);
  o.count("-w,--threads", p.threads, "1", 0, 1u << 20, "threads sharing the block list (default 1)");
  o.count("--passes", p.passes, "1", 0, std::uint64_t{1} << 40, "times every block is dumped or loaded (default 1)");
  o.text("--sync", sync, "dump: none (default), block (fdatasync each before its rename), end (one syncfs)");
  o.text("--to", to, "load: host (default) or device (through a pinned buffer)");
  o.text("--backend", p.backend, "load --to device: the backend (default cpu)");
  o.count("--device", p.device, "0", 0, 1u << 20, "load --to device: the device index (default 0)");
  o.text("--engine", p.engine, "load --to device: the backend's copy engine (default its first)");
  o.flag("--buffered", p.buffered, "through the page cache (default O_DIRECT)");
  o.flag("--verify", p.verify, "load: check every byte against the pattern the dump wrote");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  flags.load_expectations();
  // Every flag before anything about the files: a missing block or file is a run's failure (exit 1)
  // and must not hide a bad --format or -o (exit 2).
  flags.resolve();
  if (op.empty()) throw UsageError("kv: expected dump or load first (xferbench kv dump|load --store DIR …)");
  const auto kv_op = kv_op_from(op);
  if (!kv_op) throw UsageError(fmt::format("kv {}: expected dump or load", op));
  p.op = *kv_op;
  o.convert();
  set_op_terms(p, sync, to);

  Backend* backend = p.op == KvOp::load && p.target == KvTarget::device ? &ctx.registry.get(p.backend) : nullptr;
  if (p.op == KvOp::load && blocks.size() > 1) {
    throw UsageError(fmt::format("--block {}: a load reads the one block size its store holds; sweep dumps, or load "
                                 "each size from a store of its own", o.value_of("--block")));
  }
  const std::vector<KvPlan> plans = sweep_plans(p, blocks, [](KvPlan& q, std::uint64_t s) { q.block_bytes = s; },
                                                [&](const KvPlan& q) { validate_kv_plan(q, backend); });
  return run_job_command(ctx, flags, backend, [&](JobContext& job) { return run_each(in_rounds(plans, rounds), job); });
}

}  // namespace

extern const Command kKvCommand{"kv", "KV-cache blocks dumped to and loaded from a POSIX block store", run_kv_command};

}  // namespace xb
