// `xferbench p2p`: device-to-device bandwidth within this node through the backend's peer copy,
// one pair (--src/--dst, or ascend-dmi's --ds/--dd) or every pair as a matrix (--all-pairs),
// unidirectional, bidirectional or both; or across nodes over a transport, between the devices of
// MPI ranks (--mpi: pairs 0-1, 2-3, …; even ranks on --ds's device, odd ranks on --dd's) or of two
// nodes started by hand (--ip PEER --hip SELF [--spp DIR]: the lower address is rank 0, on --ds).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>

#include <ostream>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/native_flag_words.hpp"
#include "cli/output.hpp"
#include "cli/plan_options.hpp"
#include "cli/token_flags.hpp"
#include "cli/transport_flags.hpp"
#include "cli/two_node_runtime.hpp"
#include "cli/sweep_runs.hpp"
#include "core/error.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_remote.hpp"
#include "jobs/p2p/p2p_two_nodes.hpp"
#include "runtime/mpi_library.hpp"
#include "runtime/session_token.hpp"
#include "runtime/shared_dir_rendezvous.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// What the plan does not hold: the flags that choose how the run is made.
struct P2pArgs {
  std::string direction = "uni", backend, peer, shared_dir;
  int src = 0, dst = 1;
  std::uint64_t window = 10, rounds = 1;
  std::vector<std::uint64_t> sizes;
  TransportFlags net;  // --transport, --hip, --token, --wait: the transport the nodes meet over
  bool bidirectional = false, mpi = false;
};

// The flags that only mean something across nodes, those only within one, and those only for two
// nodes started by hand.
constexpr const char* kAcrossOnly[] = {"--transport", "--hip", "--token", "--token-file", "--wait"};
constexpr const char* kNodeOnly[] = {"--all-pairs", "--devices", "--engine"};
constexpr const char* kByHandOnly[] = {"--spp", "--window"};

// --ip/--hip/--spp/--window, checked before anything is opened, so bad input leaves nothing behind.
void check_two_nodes(const P2pArgs& a) {
  if (a.net.host.empty()) {
    throw UsageError("--ip: needs --hip (this node's address: each node listens on its own, and the lower of the two "
                     "is rank 0)");
  }
  check_p2p_address_pair(a.peer, a.net.host);  // a PlanError: main words it in the native flags
  if (!a.shared_dir.empty()) check_shared_dir(a.shared_dir, "--spp");
}

// The terms of the plan that depend on each other (--direction, the pair, the matrix, across nodes).
void settle_plan(const P2pArgs& a, const CLI::App& app, P2pPlan& p) {
  std::string direction = a.direction;
  if (a.bidirectional) {
    if (app.count("--direction") > 0 && direction != "bi") {
      throw UsageError(fmt::format("--bidirectional: not with --direction {} (it means --direction bi)", direction));
    }
    direction = "bi";
  }
  if (direction != "uni" && direction != "bi" && direction != "both") {
    throw UsageError(fmt::format("--direction {}: expected uni, bi or both", direction));
  }
  p.unidirectional = direction != "bi";
  p.bidirectional = direction != "uni";
  const bool named_pair = app.count("--src") + app.count("--dst") > 0;
  if (p.all_pairs && named_pair) {
    throw UsageError(fmt::format("--all-pairs: not with {} (a matrix measures every pair)",
                                 app.count("--src") > 0 ? "--src/--ds" : "--dst/--dd"));
  }
  if (!p.all_pairs && app.count("--devices") > 0) {
    throw UsageError("--devices: only with --all-pairs (how many devices the matrix spans)");
  }
  if (p.all_pairs && app.count("--devices") > 0 && p.devices < 2) {
    throw UsageError(fmt::format("--devices {}: a matrix needs 2 devices at least", p.devices));
  }
  p.pairs = {{a.src, a.dst}};
  const bool by_hand = app.count("--ip") > 0;
  if (a.mpi && by_hand) {
    throw UsageError("--ip: not with --mpi (MPI pairs its ranks; --ip names the other node of a run started by hand)");
  }
  if (a.mpi || by_hand) {
    refuse_given(app, kNodeOnly,
                 a.mpi ? "only within one node (not with --mpi)" : "only within one node (not with --ip)");
  } else {
    refuse_given(app, kAcrossOnly, "only across nodes (with --mpi or --ip)");
  }
  if (!by_hand) refuse_given(app, kByHandOnly, "only with --ip and --hip (two nodes started by hand)");
  if (by_hand) check_two_nodes(a);
  p.across_nodes = a.mpi || by_hand;
}

P2pRemotePlan to_remote_plan(const P2pArgs& a, const P2pPlan& base) {
  TransportChoice choice = parse_transport_flags(a.net);
  // By hand (--ip), each node serves on --hip for the other: no public token off loopback.
  if (!a.peer.empty()) choice.token = server_session_token(a.net.token, choice.host, "--hip");
  return {.base = base, .even_device = base.pairs.front().src, .odd_device = base.pairs.front().dst,
          .transport = choice.transport, .host = choice.host, .token = choice.token, .wait = choice.wait};
}

// Both nodes run this and deliver the same cases (each its own output, e.g. -o file), each kept as it
// completes (a node failed or interrupted midway delivers those, marked partial). The start window
// runs out with an error naming the address, never a hang.
int run_two_nodes(const P2pArgs& a, const P2pPlan& plan, const JobCommandFlags& flags, CommandContext& ctx,
                  Backend& backend) {
  P2pRemotePlan remote = to_remote_plan(a, plan);
  const TwoNodeMeet meet{.rank = p2p_rank_by_address(a.net.host, a.peer), .self = a.net.host, .peer = a.peer,
                         .shared_dir = a.shared_dir, .window = std::chrono::seconds(a.window),
                         .listener = fmt::format("the other node ({})", a.peer)};  // only rank 1 waits for rank 0
  return run_job_command(ctx, flags, &backend, [&](JobContext& job) {
    return worded_by(native_flag_words(), [&] {
      const std::unique_ptr<Runtime> pair = meet_other_node(meet, remote);
      job.runtime = pair.get();
      return run(remote, job);
    });
  });
}

// Every rank runs this; rank 0 keeps each case as it completes and delivers the result. A rank that
// fails ends the job (MPI_Abort: the others would wait in a collective for ever), rank 0 first
// delivering the cases complete, marked partial; so does an interrupt (mpirun's SIGTERM on an abort).
int run_mpi(const P2pArgs& a, const P2pPlan& plan, const JobCommandFlags& flags, CommandContext& ctx,
            Backend& backend) {
  P2pRemotePlan remote = to_remote_plan(a, plan);
  const MpiLibrary mpi = MpiLibrary::load(ctx.registry.module_dirs(), "--mpi");
  // Started inside the kept run, after its signal watcher: MPI's threads then leave the end
  // signals to it. Outlives the run, so a failure can still end every rank through it.
  std::unique_ptr<MpiWorld> world;
  bool paired = false;  // past the rank count: a failure from here on ends every rank
  ResultDocument doc = new_result_document(ctx);
  const KeptRun how{.deliver = [&](const ResultDocument& d) { if (world && world->rank() == 0) deliver(d, flags.out, ctx); },
                    .quiet = flags.out.quiet,
                    .progress = false};  // the ranks share one terminal
  try {
    doc.cases = run_keeping_cases(ctx, doc, how, &backend, [&](JobContext& job) {
      world = mpi.start();
      if (world->size() < 2 || world->size() % 2 != 0) {
        throw UsageError(fmt::format("--mpi: needs an even number of ranks, 2 or more (pairs 0-1, 2-3, …); this job "
                                     "has {}{}",
                                     world->size(), mpi_launched() ? "" : " (start it with mpirun -n 2)"));
      }
      paired = true;
      remote.token = shared_session_token(*world, given_session_token(a.net.token));
      job.runtime = world.get();
      return worded_by(native_flag_words(), [&] { return run(remote, job); });
    });
  } catch (const std::exception& e) {
    if (!paired) throw;  // MPI did not start, or the ranks cannot pair: every rank says so itself
    ctx.err << fmt::format("xferbench p2p: rank {}: error: {}\n", world->rank(), e.what()) << std::flush;
    world->abort(kExitFailure);
  }
  if (world->rank() == 0) deliver(doc, flags.out, ctx);
  return kExitOk;
}

int run_p2p_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Device-to-device bandwidth within this node through the backend's peer copy: one pair or every "
               "pair as a matrix (rows source, columns destination), one way or both ways at once; or across nodes "
               "over a transport: MPI ranks (--mpi) or two nodes started by hand (--ip PEER --hip SELF)",
               "p2p"};
  PlanOptions o(app);
  P2pArgs a;
  P2pPlan p;
  o.count("--src,--ds", a.src, "0", 0, kP2pMaxDevices, "source device (default 0)");
  o.count("--dst,--dd", a.dst, "1", 0, kP2pMaxDevices, "destination device (default 1)");
  o.flag("--all-pairs", p.all_pairs, "every ordered pair of devices, and the bandwidth matrix");
  o.count("--devices", p.devices, "0", 0, kP2pMaxDevices,
          "--all-pairs: devices 0..N-1 (default: every device; the cpu backend's arenas are virtual: 2)");
  o.text("--direction", a.direction, "uni (one way), bi (both ways at once, both counted) or both (default uni)");
  o.flag("--bidirectional", a.bidirectional, "the same as --direction bi");
  // Its range (to 4 GiB) is validate_p2p_plan's.
  o.sizes("-s,--size", a.sizes, "512M", "bytes per execution and direction, 1 to 4G; within a node a sweep too: 1M,64M or 1M:1G[:FACTOR], a case each (default 512M)");
  o.count("--times,--et", p.executions, "40", 1, kP2pMaxExecutions, "timed executions per pair, 1 to 100000000 (default 40)");
  o.repetitions(a.rounds);
  o.count("--warmup", p.warmup, "1", 0, kP2pMaxExecutions, "untimed executions per pair first (default 1)");
  o.text("--backend", a.backend, "device backend (default: the first accelerator found, else cpu)");
  o.text("--engine", p.engine, "copy engine of the backend (default: its first)");
  o.flag("--verify", p.verify, "a pattern in every source, checked in the destination after each pair");
  o.flag("--mpi", a.mpi, "across the nodes of an MPI job: ranks paired 0-1, 2-3, …, even ranks on --ds, odd on --dd");
  o.text("--ip,--peer-ip", a.peer,
         "two nodes started by hand (no MPI): the other node's IP address; the lower of --ip and --hip is "
         "rank 0 (on --ds, listening on port 20005)");
  o.text("--spp,--shared-dir", a.shared_dir,
         "--ip: meet through this directory both nodes see (mode 0700, this user's) instead of port 20005");
  o.count("--window", a.window, "10", 1, 3600, "--ip: seconds both nodes have to start, 1 to 3600 (default 10)");
  o.text("--transport", a.net.transport,
         fmt::format("--mpi/--ip: {} (default: the first)", fmt::join(transport_names(), " or ")));
  o.text("--hip,--host-ip", a.net.host,
         "--mpi/--ip: this node's IP address (--mpi's default: the first non-loopback IPv4 address)");
  o.text("--token", a.net.token, "--mpi/--ip: shared session token (default $XFERBENCH_TOKEN; else --mpi: one drawn by rank 0 and sent over MPI, --ip: the built-in one on loopback only)");
  add_token_file_flag(app, a.net.token_file);
  o.text("--wait", a.net.wait, "--mpi/--ip: seconds to wait for the partner and for each transfer (default 20)");
  JobCommandFlags flags;
  flags.add_to(app);
  o.parse(args);
  resolve_token_file(a.net.token, a.net.token_file);
  flags.load_expectations();
  settle_plan(a, app, p);
  flags.resolve();
  std::string why_cpu;
  Backend& backend = ctx.registry.choose(a.backend, &why_cpu);
  if (const Support s = backend.availability(); !s.ok) {
    throw Unavailable(fmt::format("the {} backend: {}", backend.name(), s.reason));
  }
  const bool across = a.mpi || !a.peer.empty();
  if (across && a.sizes.size() > 1) {
    throw UsageError(fmt::format("-s {}: a sweep runs within a node; across nodes give one size", o.value_of("-s")));
  }
  if (across && a.rounds > 1) throw UsageError("--repetitions: within a node; across nodes run the command again");
  const std::vector<P2pPlan> plans = sweep_plans(p, a.sizes, [](P2pPlan& q, std::uint64_t s) { q.size = s; },
                                                 [&](const P2pPlan& q) { validate_p2p_plan(q, backend); });
  if (across && flags.layers) {
    throw UsageError("--judge: p2p within a node only (across nodes the fleet judges; docs/judge.md)");
  }
  if (!why_cpu.empty() && !flags.out.quiet && !across) {
    ctx.err << fmt::format("xferbench p2p: devices are cpu backend arenas ({})\n", why_cpu);
  }
  if (a.mpi) return run_mpi(a, plans.front(), flags, ctx, backend);  // one size across nodes (above)
  if (!a.peer.empty()) return run_two_nodes(a, plans.front(), flags, ctx, backend);
  // Within a node only (above): MPI ranks share one terminal, and rank 0's table is the output.
  return run_job_command(ctx, flags, &backend, [&](JobContext& job) { return run_each(in_rounds(plans, a.rounds), job); });
}

}  // namespace

extern const Command kP2pCommand{"p2p", "device-to-device bandwidth within and across nodes", run_p2p_command};

}  // namespace xb
