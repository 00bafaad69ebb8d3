// One client moving to several servers at once (one to many): the client plan on a thread per
// server, each with its own transport, device and memory, as HIXL's engine runs a worker per
// remote.
#include <fmt/format.h>

#include <mutex>

#include "core/plan_error.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "jobs/xfer/xfer_sides.hpp"
#include "runtime/thread_team.hpp"

namespace xb {
namespace {

// Which server of how many a client case moved to.
void tag_server(CaseResult& c, std::size_t index, std::size_t servers) {
  auto config = c.config.get<XferClientConfig>();
  config.server_index = index;
  config.servers = servers;
  c.config = config;
  // A label as well when there are several: the cases of two servers differ in nothing else that
  // identifies them, and the report (its lines) and compare (its matching) go by the labels.
  if (servers > 1) c.labels.emplace_back("server", std::to_string(index));
}

}  // namespace

std::vector<CaseResult> run_xfer_clients(const XferPlan& plan, const std::vector<SocketAddress>& servers,
                                         Backend& backend, const CaseSink& on_case, ProgressLine* progress,
                                         const std::stop_token& interrupt) {
  validate_xfer_plan(plan);
  if (servers.empty() || servers.size() > kXferMaxFanOut) {
    throw PlanError(
        fmt::format("{}: 1 to {} servers, not {}", flag("xfer.control_client"), kXferMaxFanOut, servers.size()));
  }
  std::mutex mutex;  // one on_case at a time
  std::vector<std::vector<CaseResult>> per_server(servers.size());
  run_threads(servers.size(), [&](std::size_t i) {
    XferPlan mine = plan;
    mine.control = servers[i];
    per_server[i] = run_xfer_client(mine, backend, [&](const CaseResult& c) {
      if (!on_case) return;
      CaseResult tagged = c;
      tag_server(tagged, i, servers.size());
      const std::lock_guard lock(mutex);
      on_case(tagged);
    }, progress, interrupt);
  });
  std::vector<CaseResult> cases;
  for (std::size_t i = 0; i < per_server.size(); ++i) {
    for (CaseResult& c : per_server[i]) {
      tag_server(c, i, servers.size());
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

}  // namespace xb
