#include "jobs/link/link_server.hpp"

#include <sstream>

namespace xb {

SessionReport run(const LinkServerPlan& plan, JobContext& ctx) {
  Backend& backend = ctx.need_backend("link server");
  std::ostringstream nowhere;  // no log given: refused connections are not shown
  return serve_peer(plan, backend, ctx.log != nullptr ? *ctx.log : nowhere, ctx.on_listening);
}

}  // namespace xb
