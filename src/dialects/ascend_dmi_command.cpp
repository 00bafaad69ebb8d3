// `xferbench ascend-dmi …` (and a link named ascend-dmi): parse, run the p2p job, print each case as
// ascend-dmi's Unidirectional / Bidirectional Peer to Peer Test block as it completes.
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <ostream>

#include "cli/command.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "dialects/ascend_dmi.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_mpi_group.hpp"
#include "jobs/p2p/p2p_remote.hpp"
#include "jobs/p2p/p2p_two_nodes.hpp"
#include "runtime/mpi_runtime.hpp"
#include "transport/session.hpp"

namespace xb {
namespace {

int run_local(const AscendDmiRequest& req, CommandContext& ctx) {
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  validate_p2p_plan(req.plan, backend, ascend_dmi_flag_names());
  // Within one node both Pods are this machine, named by its host name.
  const std::string pod = host_name();
  const P2pPair pair = req.plan.pairs.front();
  run_p2p(req.plan, backend, [&](const CaseResult& c) {
    ctx.out << render_ascend_dmi_block(c, {pod, pair.src}, {pod, pair.dst}) << std::flush;
  });
  // After the tool's own output, so a script reading `2>&1` by line number finds its lines where
  // the real tool puts them; -q silences it.
  if (!why_cpu.empty() && !req.quiet) {
    ctx.err << fmt::format("ascend-dmi: no NPU or GPU found ({}); devices are cpu backend arenas\n", why_cpu);
  }
  return kExitOk;
}

// --sp 2: two MPI ranks, rank 0 on --ds's device and rank 1 on --dd's; rank 0 prints the four
// blocks in the seed's order (rank 1 -> rank 0 first).
int run_mpi(const AscendDmiRequest& req, CommandContext& ctx) {
  Backend& backend = ctx.registry.preferred();
  validate_p2p_plan(req.plan, backend, ascend_dmi_flag_names());
  P2pRemotePlan plan;
  plan.base = req.plan;
  plan.even_device = req.plan.pairs.front().src;
  plan.odd_device = req.plan.pairs.front().dst;
  plan.token = default_session_token();
  MpiSession session;
  MpiRuntime runtime(session);
  if (runtime.size() != 2) {
    throw UsageError(fmt::format("--sp 2: needs an MPI job of 2 ranks (mpirun -n 2 ascend-dmi …); this one has {}",
                                 runtime.size()));
  }
  MpiP2pGroup group(runtime);
  std::vector<CaseResult> cases;
  try {
    cases = run_p2p_remote(plan, backend, group);
  } catch (const std::exception& e) {
    ctx.err << fmt::format("ascend-dmi: rank {}: error: {}\n", runtime.rank(), e.what()) << std::flush;
    MpiSession::abort(kExitFailure);
  }
  for (const CaseResult& c : cases) {
    const auto pod = [&](const char* side) {
      return AscendDmiPod{fmt::format("rank {}", c.config.at(std::string(side) + "_rank").get<int>()),
                          c.config.at(std::string(side) + "_device").get<int>()};
    };
    ctx.out << render_ascend_dmi_block(c, pod("from"), pod("to"));
  }
  ctx.out << std::flush;
  return kExitOk;
}

// --sp 0/1 --ip PEER --hip SELF: two nodes started by hand within the start window (10 s, the
// seed's). The --sp 0 node is rank 0 (its device is the source of the unidirectional test); both
// print the same two blocks, each naming its own address first, as the seed's figures 1 and 2.
// With --spp DIR the rendezvous address travels through DIR/ascend_check (P2pSharedDir) instead of
// a fixed port.
int run_peer_ip(const AscendDmiRequest& req, CommandContext& ctx) {
  Backend& backend = ctx.registry.preferred();
  validate_p2p_plan(req.plan, backend, ascend_dmi_flag_names());
  P2pRemotePlan plan;
  plan.base = req.plan;
  plan.even_device = req.device;
  plan.odd_device = req.device;
  // Each node serves on --hip for the other: off loopback only with a token of the user's own
  // (ascend-dmi has no token flag: XFERBENCH_TOKEN on both nodes).
  plan.token = server_session_token("", req.host_ip, "--hip", "");
  plan.both_orders = false;
  P2pTwoNodeMeet meet;
  meet.rank = req.super_pod;
  meet.self = req.host_ip;
  meet.peer = req.peer_ip;
  meet.shared_dir = req.shared_dir;
  meet.card = req.card;
  meet.listener = "the other node (--sp 0)";
  for (const CaseResult& c : run_p2p_two_nodes(plan, meet, backend)) {
    ctx.out << render_ascend_dmi_block(c, {req.host_ip, req.device}, {req.peer_ip, req.device});
  }
  ctx.out << std::flush;
  return kExitOk;
}

int run_ascend_dmi(const std::vector<std::string>& args, CommandContext& ctx) {
  const AscendDmiRequest req = parse_ascend_dmi(args);
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

extern const Command kAscendDmiCommand{"ascend-dmi", "ascend-dmi --bw -t p2p, its command line and output",
                                       run_ascend_dmi};

}  // namespace xb
