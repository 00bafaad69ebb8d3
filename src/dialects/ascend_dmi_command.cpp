// `xferbench ascend-dmi …` (and a link named ascend-dmi): parse, run the p2p job, print each case as
// ascend-dmi's Unidirectional / Bidirectional Peer to Peer Test block as it completes.
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <memory>
#include <ostream>

#include "cli/command.hpp"
#include "core/error.hpp"
#include "dialects/ascend_dmi.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_mpi_group.hpp"
#include "jobs/p2p/p2p_remote.hpp"
#include "jobs/p2p/p2p_shared_dir.hpp"
#include "jobs/p2p/p2p_tcp_group.hpp"
#include "runtime/mpi_runtime.hpp"
#include "transport/session.hpp"

namespace xb {
namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "localhost";
  return name.data();
}

int run_local(const AscendDmiRequest& req, CommandContext& ctx) {
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  validate_p2p_plan(req.plan, backend, ascend_dmi_flag_names());
  if (!why_cpu.empty() && !req.quiet) {
    ctx.err << fmt::format("ascend-dmi: no NPU or GPU found ({}); devices are cpu backend arenas\n", why_cpu);
  }
  // Within one node both Pods are this machine, named by its host name.
  const std::string pod = host_name();
  const P2pPair pair = req.plan.pairs.front();
  run_p2p(req.plan, backend, [&](const CaseResult& c) {
    ctx.out << render_ascend_dmi_block(c, {pod, pair.src}, {pod, pair.dst}) << std::flush;
  });
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
  plan.host = req.host_ip;
  plan.token = default_session_token();
  plan.both_orders = false;
  plan.results_everywhere = true;
  const std::chrono::milliseconds window = std::chrono::seconds(10);
  std::unique_ptr<P2pSharedDir> shared;
  P2pRendezvousHooks hooks;
  if (req.meet == AscendDmiMeet::shared_dir) {
    shared = std::make_unique<P2pSharedDir>(req.shared_dir, req.super_pod, req.host_ip, req.peer_ip, req.device,
                                            req.card);
    if (req.super_pod == 0) {
      hooks.listening = [&](const SocketAddress& a) { shared->publish(a); };
    } else {
      hooks.find_peer = [&](std::chrono::steady_clock::time_point deadline) {
        return shared->await_peer(deadline, window, req.host_ip);
      };
    }
  }
  P2pTcpGroup group(req.super_pod, req.host_ip, req.peer_ip, kP2pRendezvousPort, window, plan.wait, hooks);
  for (const CaseResult& c : run_p2p_remote(plan, backend, group)) {
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
