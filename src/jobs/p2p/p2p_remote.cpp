#include "jobs/p2p/p2p_remote.hpp"

#include <fmt/format.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/plan_error.hpp"
#include "jobs/endpoint/put_source.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/p2p/p2p_metrics.hpp"
#include "jobs/p2p/p2p_peer_server.hpp"
#include "runtime/rank_values.hpp"
#include "runtime/timed_loop.hpp"
#include "transport/auth.hpp"
#include "transport/session.hpp"
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

// This rank's side of the run: its put source (transport, device memory, registration), its
// client to the partner's server and the region it exposed there. The client goes first.
struct RankSide {
  std::unique_ptr<PutSource> source;
  std::unique_ptr<ClientSession> client;
  PeerRegion remote;
};

}  // namespace

int p2p_remote_device(const P2pRemotePlan& plan, int rank) { return rank % 2 == 0 ? plan.even_device : plan.odd_device; }

std::string p2p_default_host() {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return "127.0.0.1";
  std::string found = "127.0.0.1";
  for (const ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0) continue;
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof text);
    found = text;
    break;
  }
  freeifaddrs(list);
  return found;
}

std::vector<CaseResult> run(const P2pRemotePlan& plan_in, JobContext& ctx) {
  Backend& backend = ctx.need_backend("p2p");
  Runtime& group = ctx.need_runtime("p2p");
  P2pRemotePlan plan = plan_in;
  if (plan.transport.empty()) plan.transport = default_transport_name();
  if (plan.host.empty()) plan.host = p2p_default_host();
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
  // Every rank serves its device memory first, then learns where every other rank serves.
  P2pPeerServer server(plan.host, plan.transport, plan.token, plan.wait, device_index, backend, exactly_the_plan(size));
  const std::vector<std::string> addresses = group.allgather(server.control().to_string());

  RankSide side;
  side.source = std::make_unique<PutSource>(backend, device_index, size, plan.transport);
  if (plan.base.verify) side.source->memory().fill(0, size, seed);
  SessionOptions options;
  options.token = plan.token;
  options.wait = plan.wait;
  const SocketAddress peer = parse_address(addresses.at(static_cast<std::size_t>(partner)), "the partner's address", true);
  side.client = std::make_unique<ClientSession>(side.source->transport(), peer, options);
  side.remote = side.client->expose(size, RegionPlace::device);
  Endpoint& endpoint = side.client->endpoint();
  group.barrier();

  const std::string backend_name(backend.name());
  const std::vector<std::string> nodes = group.allgather(host_name());
  const auto where = [&](int r) {
    return fmt::format("rank {} {}", r, p2p_device_name(backend_name, p2p_remote_device(plan, r)));
  };
  std::vector<CaseResult> mine;
  for (int a = 0; a < ranks; a += 2) {
    const int b = a + 1;
    for (const PairCase& pc : pair_cases(a, b, plan.both_orders)) {
      const bool active = rank == pc.from || (pc.bidirectional && rank == pc.to);
      ElapsedRecord elapsed("host clock: put and flush, the slower side of the pair");
      // Both sides of an execution start together; it lasts until its slower direction is done
      // (the loop's max over ranks; idle ranks time nothing).
      run_timed_loop(
          {.warmup = plan.base.warmup,
           .iterations = plan.base.executions,
           .max_over_ranks = true,
           .keep_samples = false,
           .submit_time = false},
          &group,
          [&] {
            if (active) endpoint.put(side.source->region(), 0, *side.remote.remote, 0, size);
          },
          [&] {
            if (active) endpoint.flush(plan.wait);
          },
          nullptr, [&](const IterationTimes& t) {
            if (!t.warmup) elapsed.add(t.complete_us);
          });
      if (active && plan.base.verify) {
        if (const auto bad = side.client->verify(side.remote, 0, size, seed)) {
          throw std::runtime_error(fmt::format("verify failed: {} -> {}: byte at offset {} of the destination differs",
                                               where(rank), where(partner), *bad));
        }
      }
      if (rank == a) {
        CaseResult c = make_p2p_case(plan.base, backend_name, where(pc.from), where(pc.to), pc.bidirectional, elapsed);
        auto config = c.config.get<P2pConfig>();
        config.scope = "nodes";
        config.launcher = plan.results_everywhere ? "peer-ip" : "mpi";
        config.transport = plan.transport;
        config.timing = "host clock per execution: put + flush, the slower of the pair's ranks";
        config.from_rank = pc.from;
        config.to_rank = pc.to;
        config.from_device = p2p_remote_device(plan, pc.from);
        config.to_device = p2p_remote_device(plan, pc.to);
        config.from_node = nodes.at(static_cast<std::size_t>(pc.from));
        config.to_node = nodes.at(static_cast<std::size_t>(pc.to));
        c.config = config;
        mine.push_back(std::move(c));
      }
    }
  }
  side.client->finish();
  server.join();

  // Each pair's cases were made at its lower rank: gather them to rank 0, in pair order.
  std::vector<std::vector<CaseResult>> all =
      plan.results_everywhere ? allgather_values(group, mine) : gather_values(group, mine, 0);
  std::vector<CaseResult> cases;
  for (std::vector<CaseResult>& of_rank : all) {
    for (CaseResult& c : of_rank) {
      ctx.emit(c);
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace xb
