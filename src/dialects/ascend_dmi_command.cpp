// `xferbench ascend-dmi …` (and a link named ascend-dmi): parse; -t p2p runs the p2p job and prints
// each case as ascend-dmi's Unidirectional / Bidirectional Peer to Peer Test block as it completes
// (every pair: the two matrices at the end); -t h2d|d2h|d2d (or no -t) runs the copy job per size
// and prints its table; --fmt json prints one JSON document at the end instead.
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>
#include <ostream>

#include "cli/command.hpp"
#include "cli/stopping_run.hpp"
#include "cli/two_node_runtime.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/plan_error.hpp"
#include "dialects/ascend_dmi.hpp"
#include "dialects/ascend_dmi_output.hpp"
#include "jobs/copy/copy_job.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_remote.hpp"
#include "jobs/p2p/p2p_two_nodes.hpp"
#include "runtime/mpi_library.hpp"
#include "transport/session.hpp"

namespace xb {
namespace {

// Where the blocks go: printed as each case completes, or, with --fmt json, gathered and printed
// as one document at the end.
class BlockPrinter {
 public:
  BlockPrinter(const AscendDmiRequest& req, std::ostream& out) : json_(req.json), size_(req.plan.size), out_(out) {}
  void print(const CaseResult& c, const AscendDmiPod& from, const AscendDmiPod& to) {
    if (json_) {
      doc_.add_p2p(c, size_, from.pod, from.id, to.pod, to.id);
    } else {
      out_ << render_ascend_dmi_block(c, from, to) << std::flush;
    }
  }
  void finish() {
    if (json_) out_ << doc_.dump();
    out_ << std::flush;
  }

 private:
  bool json_;
  std::uint64_t size_;  // the plan's: a waived pair's JSON entry names it
  std::ostream& out_;
  AscendDmiJson doc_;
};

// After the tool's own output, so a script reading `2>&1` by line number finds its lines where
// the real tool puts them; -q silences them.
void notes_after(const AscendDmiRequest& req, const std::string& why_cpu, CommandContext& ctx) {
  if (req.quiet) return;
  if (!why_cpu.empty()) {
    ctx.err << fmt::format("ascend-dmi: no NPU or GPU found ({}); devices are cpu backend arenas\n", why_cpu);
  }
  if (req.json_ignored) ctx.err << "ascend-dmi: --fmt json does not apply to the all-devices p2p test (as the tool's)\n";
}

// -m card: how many devices a card of `backend` has, from where its devices say they sit. 0 where
// the backend does not group devices by card (cpu, CUDA: a card is its device, docs/acl.md).
int devices_per_card(Backend& backend) {
  if (!backend.availability().ok || backend.device_count() < 1) return 0;
  const int card = backend.open_device(0)->info().card;
  if (card < 0) return 0;
  int dies = 1;
  while (dies < backend.device_count() && backend.open_device(dies)->info().card == card) ++dies;
  return dies;
}

// Within a node: the card's devices all move at once (P2pPlan::card_dies).
int card_devices(Backend& backend) {
  const int dies = devices_per_card(backend);
  if (dies == 1) {
    throw Unavailable(fmt::format("-m card: every card of the {} backend here is one device (card {} holds only "
                                  "device 0); use -m device",
                                  backend.name(), backend.open_device(0)->info().card));
  }
  return dies;
}

// Across nodes each node moves one device; where a card spans several, that is not the card's
// figure, so it is refused rather than printed as one (docs/acl.md).
void refuse_card_across_nodes(const AscendDmiRequest& req, Backend& backend) {
  if (!req.card) return;
  if (const int dies = devices_per_card(backend); dies > 1) {
    throw Unavailable(fmt::format("-m card across nodes: a card of the {} backend here is {} devices, and a run across "
                                  "nodes moves one device a node (not built for whole cards); use -m device",
                                  backend.name(), dies));
  }
}

int run_local(const AscendDmiRequest& req_in, CommandContext& ctx) {
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  AscendDmiRequest req = req_in;
  // Within one node both Pods are this machine, named by its host name.
  const std::string pod = host_name();
  BlockPrinter printer(req, ctx.out);
  // Ctrl-C stops the devices' work and releases them before the process dies (cli/stopping_run).
  // Reading the cards opens devices (the runtime starts, and its own threads), so it is inside the
  // stopping run too: a signal then is the watcher's, never a handler's that ends the process there.
  const std::vector<CaseResult> cases = run_stopping_on_interrupt(ctx, [&](const std::stop_token& stop) {
    if (req.card) req.plan.card_dies = card_devices(backend);
    worded_by(ascend_dmi_flag_words(), [&] { validate_p2p_plan(req.plan, backend); });
    JobContext job{.registry = &ctx.registry,
                   .backend = &backend,
                   .on_case =
                       [&](const CaseResult& c) {
                         if (req.plan.all_pairs) return;  // the matrices, at the end
                         const P2pPair pair = req.plan.pairs.front();
                         const std::string_view unit = req.plan.card_dies > 0 ? "card" : "device";
                         printer.print(c, {pod, pair.src, unit}, {pod, pair.dst, unit});
                       },
                   .stop = stop};
    return run(req.plan, job);
  });
  if (req.plan.all_pairs) {
    for (const CaseResult& c : cases) {
      // A waived pair has no configuration; the matrices have theirs.
      if (c.config.is_object() && c.config.get<P2pConfig>().matrix) ctx.out << render_ascend_dmi_matrix(c);
    }
  }
  printer.finish();
  notes_after(req, why_cpu, ctx);
  return kExitOk;
}

// -t h2d|d2h|d2d (or no -t): the copy job on device -d, one case per size, one table per direction.
int run_copies(const AscendDmiRequest& req, CommandContext& ctx) {
  const AscendDmiCopies& copies = *req.copies;
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  const auto plan_for = [&](CopyDirection d, std::uint64_t size) {
    CopyPlan p;
    p.backend = std::string(backend.name());
    p.direction = d;
    p.host_kind = HostMemoryKind::pinned;
    p.streams = 1;
    p.block_bytes = size;
    p.blocks = 1;
    p.iterations = copies.executions;
    p.warmup = 1;
    p.devices = 1;
    p.first_device = copies.device;
    return p;
  };
  // Every size of every direction checked before the first runs.
  for (const CopyDirection d : copies.directions) {
    for (const std::uint64_t size : copies.sizes) {
      worded_by(ascend_dmi_flag_words(), [&] { validate_copy_plan(plan_for(d, size), backend); });
    }
  }
  AscendDmiJson doc;
  for (const CopyDirection d : copies.directions) {
    if (!req.json) ctx.out << render_ascend_dmi_copy_header(d, copies.device) << std::flush;
    for (const std::uint64_t size : copies.sizes) {
      const CopyPlan plan = plan_for(d, size);
      JobContext job{.registry = &ctx.registry, .backend = &backend};
      const AscendDmiCopyRow row = ascend_dmi_copy_row(run(plan, job).front());
      if (req.json) {
        doc.add_copy(d, copies.device, row);
      } else {
        ctx.out << render_ascend_dmi_copy_row(copies.device, row) << std::flush;
      }
    }
    if (!req.json) ctx.out << render_ascend_dmi_copy_footer();
  }
  if (req.json) ctx.out << doc.dump();
  ctx.out << std::flush;
  notes_after(req, why_cpu, ctx);
  return kExitOk;
}

// --sp 2: two MPI ranks, rank 0 on --ds's device and rank 1 on --dd's; rank 0 prints the four
// blocks in the seed's order (rank 1 -> rank 0 first).
int run_mpi(const AscendDmiRequest& req, CommandContext& ctx) {
  Backend& backend = ctx.registry.preferred();
  refuse_card_across_nodes(req, backend);
  worded_by(ascend_dmi_flag_words(), [&] { validate_p2p_plan(req.plan, backend); });
  P2pRemotePlan plan;
  plan.base = req.plan;
  plan.even_device = req.plan.pairs.front().src;
  plan.odd_device = req.plan.pairs.front().dst;
  plan.token = default_session_token();
  const MpiLibrary mpi = MpiLibrary::load(ctx.registry.module_dirs(), "--sp 2");
  const std::unique_ptr<MpiWorld> world = mpi.start();
  MpiWorld& runtime = *world;
  if (runtime.size() != 2) {
    throw UsageError(fmt::format("--sp 2: needs an MPI job of 2 ranks (mpirun -n 2 ascend-dmi …); this one has {}",
                                 runtime.size()));
  }
  std::vector<CaseResult> cases;
  try {
    JobContext job{.registry = &ctx.registry, .backend = &backend, .runtime = &runtime};
    cases = worded_by(ascend_dmi_flag_words(), [&] { return run(plan, job); });
  } catch (const std::exception& e) {
    ctx.err << fmt::format("ascend-dmi: rank {}: error: {}\n", runtime.rank(), e.what()) << std::flush;
    runtime.abort(kExitFailure);
  }
  BlockPrinter printer(req, ctx.out);
  for (const CaseResult& c : cases) {
    const auto config = c.config.get<P2pConfig>();
    const auto pod = [](std::optional<int> rank, std::optional<int> device) {
      return AscendDmiPod{fmt::format("rank {}", rank.value()), device.value()};
    };
    printer.print(c, pod(config.from_rank, config.from_device), pod(config.to_rank, config.to_device));
  }
  printer.finish();
  return kExitOk;
}

// --sp 0/1 --ip PEER --hip SELF: two nodes started by hand within the start window (10 s, the
// seed's). The --sp 0 node is rank 0 (its device is the source of the unidirectional test); both
// print the same two blocks, each naming its own address first, as the seed's figures 1 and 2.
// With --spp DIR the rendezvous address travels through DIR/ascend_check (SharedDirRendezvous) instead of
// a fixed port.
int run_peer_ip(const AscendDmiRequest& req, CommandContext& ctx) {
  Backend& backend = ctx.registry.preferred();
  refuse_card_across_nodes(req, backend);
  worded_by(ascend_dmi_flag_words(), [&] { validate_p2p_plan(req.plan, backend); });
  P2pRemotePlan plan;
  plan.base = req.plan;
  plan.even_device = req.device;
  plan.odd_device = req.device;
  // Each node serves on --hip for the other: off loopback only with a token of the user's own
  // (ascend-dmi has no token flag: XFERBENCH_TOKEN on both nodes).
  plan.token = server_session_token("", req.host_ip, "--hip", "");
  plan.both_orders = false;
  TwoNodeMeet meet;
  meet.rank = req.super_pod;
  meet.self = req.host_ip;
  meet.peer = req.peer_ip;
  meet.shared_dir = req.shared_dir;
  meet.card = req.card;
  meet.listener = "the other node (--sp 0)";
  BlockPrinter printer(req, ctx.out);
  const auto cases = worded_by(ascend_dmi_flag_words(), [&] {
    const std::unique_ptr<Runtime> pair = meet_other_node(meet, plan);
    JobContext job{.registry = &ctx.registry, .backend = &backend, .runtime = pair.get()};
    return run(plan, job);
  });
  for (const CaseResult& c : cases) {
    printer.print(c, {req.host_ip, req.device}, {req.peer_ip, req.device});
  }
  printer.finish();
  return kExitOk;
}

int run_ascend_dmi(const std::vector<std::string>& args, CommandContext& ctx) {
  const AscendDmiRequest req = parse_ascend_dmi(args);
  if (req.copies) return run_copies(req, ctx);
  switch (req.meet) {
    case AscendDmiMeet::local:
      return run_local(req, ctx);
    case AscendDmiMeet::mpi:
      return run_mpi(req, ctx);
    case AscendDmiMeet::peer_ip:
      return run_peer_ip(req, ctx);
    case AscendDmiMeet::shared_dir:
      return run_peer_ip(req, ctx);
  }
  return kExitFailure;
}

}  // namespace

extern const Command kAscendDmiCommand{"ascend-dmi", "ascend-dmi --bw (-t p2p|h2d|d2h|d2d), its command line and output",
                                       run_ascend_dmi};

}  // namespace xb
