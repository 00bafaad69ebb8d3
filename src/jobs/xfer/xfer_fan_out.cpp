// One client moving to several servers at once (one to many): run_xfer_clients of xfer_sides.hpp.
#include <fmt/format.h>

#include <mutex>

#include "core/plan_error.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "jobs/xfer/xfer_sides.hpp"
#include "runtime/thread_team.hpp"

namespace xb {
namespace {

// A client case with which server of how many it moved to.
CaseResult tag_server(CaseResult c, std::size_t index, std::size_t servers) {
  auto config = c.config.get<XferClientConfig>();
  config.server_index = index;
  config.servers = servers;
  c.config = config;
  // A label as well when there are several: the cases of two servers differ in nothing else that
  // identifies them, and the report (its lines) and compare (its matching) go by the labels.
  if (servers > 1) c.labels.emplace_back("server", std::to_string(index));
  return c;
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
      const CaseResult tagged = tag_server(c, i, servers.size());
      const std::lock_guard lock(mutex);
      on_case(tagged);
    }, progress, interrupt);
  });
  std::vector<CaseResult> cases;
  for (std::size_t i = 0; i < per_server.size(); ++i) {
    for (CaseResult& c : per_server[i]) cases.push_back(tag_server(std::move(c), i, servers.size()));
  }
  return cases;
}

}  // namespace xb
