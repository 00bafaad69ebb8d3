// `xferbench sharp_coll_test …` (and the links sharp_coll_test, sharp_coll_test_mpi): parse, set the
// UCX device -d names, then either run the link job on loopback (the HCA-to-TOR test) or, with the
// collective tester's options, the coll job on this rank's MPI group; print sharp_coll_test's
// headers and one row per size as each size completes.
#include <fmt/format.h>
#include <stdlib.h>

#include <cstdlib>
#include <optional>

#include <ostream>

#include "cli/command.hpp"
#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "dialects/sharp_coll_test.hpp"
#include "jobs/coll/coll_job.hpp"
#include "jobs/link/link_config.hpp"
#include "jobs/link/link_job.hpp"
#include "jobs/link/link_server.hpp"
#include "jobs/p2p/p2p_remote.hpp"
#include "judge/case_figure.hpp"
#include "judge/expectations.hpp"
#include "judge/verdict.hpp"
#include "report/verdict_line.hpp"
#include "runtime/mpi_library.hpp"
#include "runtime/session_token.hpp"
#include "transport/address.hpp"
#include "transport/net_devices.hpp"

namespace xb {
namespace {

// xferbench's judging after the tool's output: each case's verdict on a line of its own (the
// tool's table has no place for one); true on a FAIL.
bool report_verdicts(std::vector<CaseResult>& cases, const std::optional<ExpectationLayers>& layers, CommandContext& ctx) {
  if (!layers) return false;
  judge_run(cases, *layers);
  ctx.out.flush();
  for (const CaseResult& c : cases) ctx.err << "sharp_coll_test: " << verdict_line(c) << '\n';
  ctx.err.flush();
  return any_failed(cases);
}

// The collective tester: every rank of the MPI job runs the plan on its group; each group's rank 0
// prints its blocks (as the tester's rank 0 of each communicator does). Exit 1 where a result was
// wrong. A rank that fails ends every rank (the others wait in a collective).
int run_sharp_collectives(const SharpCollectives& coll, const std::optional<ExpectationLayers>& layers,
                          CommandContext& ctx) {
  const MpiLibrary mpi = MpiLibrary::load(ctx.registry.module_dirs(), "sharp_coll_test");
  const std::unique_ptr<MpiWorld> started = mpi.start(MpiThreads::single);  // this process has no other thread
  MpiWorld& world = *started;
  bool wrong = false, failed = false;
  try {
    const std::unique_ptr<CollectiveGroup> made = world.collective_group(coll.layout, coll.allocation);
    CollectiveGroup& group = *made;
    const std::string title = sharp_group_title(coll.layout);
    if (group.rank() == 0 && !title.empty()) ctx.out << "MPI COMM Type : " << title << "\n";
    // One group prints as each size completes; several groups print at once, each collective's
    // block written whole when it is done, so the groups' blocks do not mix line by line.
    const bool whole_blocks = coll.layout.kind != GroupLayout::Kind::world;
    std::string current, block;
    std::vector<CaseResult> printed;  // this group's, at its rank 0: what is judged
    const auto emit = [&] {
      ctx.out << block << std::flush;
      block.clear();
    };
    JobContext job{.registry = &ctx.registry, .collectives = &group, .on_case = [&](const CaseResult& c) {
                     if (c.name != current && whole_blocks) emit();
                     if (c.name != current) block += render_sharp_coll_header(c);
                     current = c.name;
                     block += render_sharp_coll_row(c);
                     if (group.rank() == 0) printed.push_back(c);
                     if (!whole_blocks) emit();
                     if (c.status == CaseStatus::failed) {
                       wrong = true;
                       ctx.err << fmt::format("sharp_coll_test: wrong result: {}\n", c.status_reason) << std::flush;
                     }
                   }};
    run(coll.plan, job);
    emit();
    if (group.rank() == 0) failed = report_verdicts(printed, layers, ctx);
  } catch (const Unavailable& e) {
    ctx.err << fmt::format("sharp_coll_test: rank {}: {}\n", world.rank(), e.what()) << std::flush;
    world.abort(kExitUnavailable);
  } catch (const std::exception& e) {
    ctx.err << fmt::format("sharp_coll_test: rank {}: error: {}\n", world.rank(), e.what()) << std::flush;
    world.abort(kExitFailure);
  }
  if (world.rank() == 0) {
    ctx.out.flush();  // the tester's output first, then what xferbench adds
    if (coll.mode != "perf") {
      ctx.err << fmt::format("sharp_coll_test: -m {}: the functional tests are the perf run here, each size's "
                             "result checked\n",
                             coll.mode);
    }
    ctx.err << "sharp_coll_test: no SHARP offload here: each collective ran through MPI\n";
  }
  return wrong || failed ? kExitFailure : kExitOk;
}

// Where this rank serves the far end of its pair: the address of the interface -d names, else
// the first non-loopback IPv4 address (an RDMA device's traffic goes where UCX_NET_DEVICES says;
// the address only carries the session's control connection).
std::string serving_host(const SharpCollTestRequest& req) {
  if (!req.net_devices.empty() && req.net_devices.find(':') == std::string::npos) {
    if (auto ip = interface_ipv4(req.net_devices)) return *ip;
    throw Unavailable(fmt::format("-d {}: the interface has no IPv4 address to serve the far end on", req.ib_device));
  }
  return default_host_address();
}

// Under mpirun: ranks in pairs, 0 -> 1, 2 -> 3, …, every pair at once (each even rank's HCA puts
// into the next rank's, as many cables as pairs); an odd rank serves its partner (a link server
// thread on serving_host()), an even rank measures. Rank 0 prints its own pair's table; the far
// end it measured is named after it. A last rank without a partner waits.
int run_sharp_link_ranks(SharpCollTestRequest req, Backend& backend, const std::optional<ExpectationLayers>& layers,
                         CommandContext& ctx) {
  const MpiLibrary mpi = MpiLibrary::load(ctx.registry.module_dirs(), "sharp_coll_test");
  const std::unique_ptr<MpiWorld> started = mpi.start();
  MpiWorld& world = *started;
  const int rank = world.rank(), size = world.size();
  std::string far_end;
  std::vector<CaseResult> measured;  // rank 0's pair: what is judged
  try {
    req.plan.token = shared_session_token(world, given_session_token(""));
    const bool serves = rank % 2 == 1;
    std::optional<PeerServerThread> server;
    if (serves) {
      server.emplace(serving_host(req), req.plan.transport, req.plan.token, req.plan.wait, req.plan.device, backend,
                     exactly_the_plan(req.plan.max_bytes));
    }
    // Every rank's server address (empty where it serves none) and node, before any data moves: a
    // rank waiting in MPI spins, and its partner's server thread needs the CPU meanwhile.
    const std::vector<std::string> controls = world.allgather(server ? server->control().to_string() : "");
    const std::vector<std::string> nodes = world.allgather(world.node());
    if (!serves && rank + 1 < size) {
      const auto partner = static_cast<std::size_t>(rank + 1);
      req.plan.peer = parse_address(controls.at(partner), "the far end", true);
      far_end = fmt::format("rank {} on {} ({})", partner, nodes.at(partner), req.plan.peer->to_string());
      if (rank == 0) ctx.out << render_sharp_coll_test_header(req.plan) << std::flush;
      JobContext job{.registry = &ctx.registry, .backend = &backend, .on_case = [&](const CaseResult& r) {
                       if (rank != 0) return;
                       ctx.out << render_sharp_coll_test_row(r) << std::flush;
                       measured.push_back(r);
                     }};
      run(req.plan, job);
    }
    if (server) server->join();
    world.barrier();
  } catch (const Unavailable& e) {
    ctx.err << fmt::format("sharp_coll_test: rank {}: {}\n", rank, e.what()) << std::flush;
    world.abort(kExitUnavailable);
  } catch (const std::exception& e) {
    ctx.err << fmt::format("sharp_coll_test: rank {}: error: {}\n", rank, e.what()) << std::flush;
    world.abort(kExitFailure);
  }
  bool failed = false;
  if (rank == 0) {
    ctx.out.flush();
    ctx.err << (size < 2 ? std::string("sharp_coll_test: far end: none (an MPI job of one rank); run with mpirun -n 2\n")
                         : fmt::format("sharp_coll_test: far end: {}\n", far_end));
    try {
      failed = report_verdicts(measured, layers, ctx);
    } catch (const std::exception& e) {  // the other ranks are past the barrier: nothing to abort
      ctx.err << fmt::format("sharp_coll_test: rank 0: error: judging: {}\n", e.what()) << std::flush;
      failed = true;
    }
  }
  return failed ? kExitFailure : kExitOk;
}

int run_sharp_coll_test(const std::vector<std::string>& args, CommandContext& ctx) {
  SharpCollTestRequest req = parse_sharp_coll_test(args, net_device_exists_here, rdma_devices_here());
  // UCX reads its configuration from the environment when a transport is made; this is the one
  // place -d can reach it, before any transport or thread exists (or MPI starts: Open MPI's UCX
  // layer reads UCX_NET_DEVICES too).
  for (const EnvSetting& e : sharp_coll_test_ucx_environment(req)) {
    if (setenv(e.name.c_str(), e.value.c_str(), e.overwrite ? 1 : 0) != 0) throw_errno("setenv(" + e.name + ")");
  }
  // Loaded before anything runs (a bad file: exit 2); none when neither flag was given (no judging,
  // as sharp_coll_test itself).
  const std::optional<ExpectationLayers> layers = req.expect.load_if_given();
  if (req.collectives) return run_sharp_collectives(*req.collectives, layers, ctx);
  if (!req.plan.peer) {
    if (const char* given = std::getenv(kSharpPeerVariable); given != nullptr && *given != '\0') {
      req.plan.peer = parse_address(given, kSharpPeerVariable, true);
    }
  }
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  worded_by(sharp_coll_test_flag_words(),
            [&] { check_link_memory(req.plan, backend.capabilities().device_memory_in_host_ram); });
  if (!why_cpu.empty() && (req.plan.src == RegionPlace::device || req.plan.dst == RegionPlace::device)) {
    ctx.err << fmt::format("sharp_coll_test: no GPU found ({}); cuda memory is a cpu backend arena\n", why_cpu);
  }
  if (!req.plan.peer && mpi_launched()) return run_sharp_link_ranks(req, backend, layers, ctx);
  std::string far_end;
  std::vector<CaseResult> measured;
  ctx.out << render_sharp_coll_test_header(req.plan) << std::flush;
  JobContext job{.registry = &ctx.registry, .backend = &backend, .on_case = [&](const CaseResult& r) {
                   ctx.out << render_sharp_coll_test_row(r) << std::flush;
                   far_end = r.config.get<LinkConfig>().peer;
                   measured.push_back(r);
                 }};
  run(req.plan, job);
  ctx.out.flush();  // the tool's table first, then what xferbench adds
  ctx.err << fmt::format("sharp_coll_test: far end: {}{}\n", far_end,
                         req.plan.peer ? ""
                                       : fmt::format(" (a far end: --peer HOST:PORT or ${} naming an `xferbench link "
                                                     "--listen` server, or mpirun -n 2)",
                                                     kSharpPeerVariable));
  return report_verdicts(measured, layers, ctx) ? kExitFailure : kExitOk;
}

}  // namespace

extern const Command kSharpCollTestCommand{"sharp_coll_test",
                                           "NVIDIA sharp_coll_test dialect (link job: its flags, header and table)",
                                           run_sharp_coll_test};

}  // namespace xb
