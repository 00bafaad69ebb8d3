#include "jobs/p2p/p2p_remote.hpp"

#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/machine.hpp"
#include "core/plan_error.hpp"
#include "jobs/endpoint/paired_put.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_metrics.hpp"
#include "runtime/rank_values.hpp"
#include "transport/net_devices.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// One of the four cases of a pair, in the seed's order.
struct PairCase {
  int from, to;
  bool bidirectional;
};

std::vector<PairCase> pair_cases(int a, int b, bool both_orders) {
  if (!both_orders) return {PairCase{a, b, false}, PairCase{a, b, true}};
  return {PairCase{b, a, false}, PairCase{b, a, true}, PairCase{a, b, false}, PairCase{a, b, true}};
}

// What both sides of a pair must agree on. The devices too: a rank's device comes from its own
// command line, and the cases name both ranks' devices from rank 0's.
std::string plan_terms(const P2pRemotePlan& plan) {
  return fmt::format("{} {}, {} {}, {} warm-up, verify {}, transport {}, device {} on even ranks and {} on odd",
                     flag("p2p.size"), plan.base.size, flag("p2p.executions"), plan.base.executions, plan.base.warmup,
                     plan.base.verify ? "on" : "off", plan.transport, plan.even_device, plan.odd_device);
}

// The device a rank uses.
int p2p_remote_device(const P2pRemotePlan& plan, int rank) { return rank % 2 == 0 ? plan.even_device : plan.odd_device; }

}  // namespace

std::vector<CaseResult> run(const P2pRemotePlan& plan_in, JobContext& ctx) {
  Backend& backend = ctx.need_backend("p2p");
  Runtime& group = ctx.need_runtime("p2p");
  P2pRemotePlan plan = plan_in;
  if (plan.transport.empty()) plan.transport = default_transport_name();
  if (plan.host.empty()) plan.host = default_host_address();
  const int rank = group.rank();
  const int ranks = group.size();
  if (ranks < 2 || ranks % 2 != 0) {
    throw std::logic_error(fmt::format("p2p across nodes pairs ranks: {} ranks", ranks));
  }
  const int partner = rank ^ 1;
  const int device_index = p2p_remote_device(plan, rank);
  const std::uint64_t size = plan.base.size;
  const std::uint64_t seed = plan.base.seed + static_cast<std::uint64_t>(rank);

  require_ranks_agree(group, plan_terms(plan),
                      fmt::format("both nodes must use the same {}, {} and devices", flag("p2p.size"),
                                  flag("p2p.executions")));
  PutSource source(backend, device_index, size, plan.transport);
  if (plan.base.verify) source.memory().fill(0, size, seed);
  PairedPut pair(group, backend, source,
                 {.host = plan.host,
                  .transport = plan.transport,
                  .token = plan.token,
                  .wait = plan.wait,
                  .device = device_index,
                  .size = size,
                  .warmup = plan.base.warmup,
                  .executions = plan.base.executions},
                 partner, "the partner's address");

  const std::string backend_name(backend.name());
  const std::vector<std::string> nodes = group.allgather(host_name());
  const auto where = [&](int r) {
    return fmt::format("rank {} {}", r, p2p_device_name(backend_name, p2p_remote_device(plan, r)));
  };
  std::vector<CaseResult> cases;
  for (int a = 0; a < ranks; a += 2) {
    const int b = a + 1;
    for (const PairCase& pc : pair_cases(a, b, plan.both_orders)) {
      const bool active = rank == pc.from || (pc.bidirectional && rank == pc.to);
      ElapsedRecord elapsed("host clock: put and flush, the slower side of the pair");
      // Both sides of an execution start together; it lasts until its slower direction is done.
      pair.measure(active, true, [&](double us) { elapsed.add(us); });
      if (active && plan.base.verify) {
        if (const auto bad = pair.verify(seed)) {
          throw std::runtime_error(fmt::format("verify failed: {} -> {}: byte at offset {} of the destination differs",
                                               where(rank), where(partner), *bad));
        }
      }
      std::vector<CaseResult> made;  // the case, at the pair's lower rank
      if (rank == a) {
        CaseResult c = make_p2p_case(plan.base, backend_name, where(pc.from), where(pc.to), pc.bidirectional, elapsed);
        auto config = c.config.get<P2pConfig>();
        config.scope = "nodes";
        config.launcher = std::string(group.name());
        config.transport = plan.transport;
        config.timing = "host clock per execution: put + flush, the slower of the pair's ranks";
        config.from_rank = pc.from;
        config.to_rank = pc.to;
        config.from_device = p2p_remote_device(plan, pc.from);
        config.to_device = p2p_remote_device(plan, pc.to);
        config.from_node = nodes.at(static_cast<std::size_t>(pc.from));
        config.to_node = nodes.at(static_cast<std::size_t>(pc.to));
        c.config = config;
        made.push_back(std::move(c));
      }
      // Handed to rank 0 (every rank with results_everywhere) as it completes: a run that fails or
      // is interrupted at a later pair keeps it.
      for (std::vector<CaseResult>& of_rank :
           plan.results_everywhere ? allgather_values(group, made) : gather_values(group, made, 0)) {
        for (CaseResult& c : of_rank) {
          ctx.emit(c);
          cases.push_back(std::move(c));
        }
      }
    }
  }
  pair.finish();
  return cases;
}

}  // namespace xb
