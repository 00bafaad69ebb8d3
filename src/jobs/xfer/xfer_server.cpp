// The server side of the xfer job: expose the memory one client asks for, in the place it asks
// for, on this server's device, until the client says it is done; several clients at once on one
// control address, each by a thread of its own (many to one).
#include <fmt/format.h>

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <sstream>

#include "jobs/endpoint/peer_server.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "jobs/xfer/xfer_sides.hpp"
#include "runtime/thread_team.hpp"
#include "transport/session.hpp"

namespace xb {
namespace {

// The session options of a server: the plan's, with the interrupt that stops it.
SessionOptions server_options(const XferPlan& plan, const std::stop_token& stop) {
  SessionOptions o = xfer_session_options(plan);
  o.stop = stop;
  return o;
}

// The SessionServer of one serving thread, made on its transport with its memory factory.
using ServerMaker = std::function<std::unique_ptr<SessionServer>(Transport&, ExposedMemoryFactory)>;

// One server: its device, transport and session server (made by `make`), `ready` once it
// listens, then one client served; its case.
CaseResult serve(const XferPlan& plan, Backend& backend, const ServerMaker& make,
                 const std::function<void(const SessionServer&)>& ready) {
  // Device memory the transport cannot reach is exposed through a host window the server copies
  // to and from around each of the client's passes (staged_device_memory.hpp).
  ServingEndpoint end(backend, plan.device, plan.transport, UnreachableDeviceMemory::stage);
  std::unique_ptr<SessionServer> server = make(end.transport(), end.memory_factory());
  const std::string device_name = end.device().info().name;
  server->set_description(fmt::format("{} device {} ({})", backend.name(), plan.device, device_name));
  if (ready) ready(*server);
  const SessionReport report = server->serve_one();

  const TransportInfo info = end.transport().info();
  CaseResult r;
  r.job = "xfer";
  r.name = "server";
  r.title = fmt::format("served {} over {}: {} region(s), {} bytes exposed", report.client, info.name, report.regions,
                        report.exposed_bytes);
  r.labels = {{"role", "server"}, {"transport", info.name}, {"client", report.client}};
  XferServerConfig config;
  config.listen = server->control_address().to_string();
  config.data = server->data_address().to_string();
  config.client = report.client;
  config.clients = plan.clients;
  config.wait_ms = plan.wait.count();
  config.transport = info;
  config.backend = std::string(backend.name());
  config.device = plan.device;
  config.device_name = device_name;
  r.config = config;
  r.metrics.push_back({"regions", static_cast<double>(report.regions), "regions", "regions the client asked for"});
  r.metrics.push_back(
      {"exposed_bytes", static_cast<double>(report.exposed_bytes), "B", "sum of the sizes of those regions"});
  return r;
}

}  // namespace

CaseResult run_xfer_server(const XferPlan& plan, Backend& backend, std::ostream& log,
                           const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_ready,
                           const std::stop_token& stop) {
  validate_xfer_plan(plan);
  return serve(
      plan, backend,
      [&](Transport& tr, ExposedMemoryFactory factory) {
        return std::make_unique<SessionServer>(tr, plan.control, plan.data, server_options(plan, stop),
                                               std::move(factory), log);
      },
      [&](const SessionServer& s) {
        if (on_ready) on_ready(s.control_address(), s.data_address());
      });
}

std::vector<CaseResult> run_xfer_server_clients(
    const XferPlan& plan, Backend& backend, std::ostream& log,
    const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_ready,
    const CaseSink& on_case, const std::stop_token& stop) {
  validate_xfer_plan(plan);
  if (plan.clients == 1) {
    CaseResult c = run_xfer_server(plan, backend, log, on_ready, stop);
    if (on_case) on_case(c);
    return {std::move(c)};
  }
  const SharedControlListener listener(plan.control);
  std::mutex mutex;  // guards everything below it, and `log`
  std::condition_variable listening;
  unsigned ready = 0, ended = 0;
  std::optional<SocketAddress> first_data;
  std::vector<CaseResult> cases;
  // Each worker listens on its own data port (a client learns its server's after the handshake)
  // and logs to its own stream, copied to `log` at the end.
  std::vector<std::ostringstream> logs(plan.clients);
  const auto worker = [&](std::size_t i) {
    std::optional<CaseResult> c;
    std::exception_ptr failed;
    try {
      c = serve(
          plan, backend,
          [&](Transport& tr, ExposedMemoryFactory factory) {
            return std::make_unique<SessionServer>(tr, listener, plan.data, server_options(plan, stop),
                                                   std::move(factory), logs[i]);
          },
          [&](const SessionServer& s) {
            const std::lock_guard lock(mutex);
            if (!first_data) first_data = s.data_address();
            ++ready;
            listening.notify_all();
          });
    } catch (...) {
      failed = std::current_exception();
    }
    {
      const std::lock_guard lock(mutex);
      if (c) {
        if (on_case) on_case(*c);
        cases.push_back(std::move(*c));
      }
      ++ended;
      listening.notify_all();
    }
    if (failed) std::rethrow_exception(failed);
  };
  // Every worker listens, or one failed before it could (it ends): then no ready call.
  const auto announce = [&] {
    std::unique_lock lock(mutex);
    listening.wait(lock, [&] { return ready + ended >= plan.clients; });
    if (ready == plan.clients && on_ready) on_ready(listener.address(), *first_data);
  };
  const auto copy_logs = [&] {
    for (const auto& l : logs) log << l.str();
    log << std::flush;
  };
  try {
    run_threads(plan.clients, worker, announce);
  } catch (...) {
    copy_logs();
    throw;
  }
  copy_logs();
  return cases;
}

}  // namespace xb
