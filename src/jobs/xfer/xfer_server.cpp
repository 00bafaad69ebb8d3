// The server side of the xfer job (xfer_sides.hpp): the memory each client asks for, in the place
// it asks for, until it is done; several clients at once on one control address (many to one).
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

// One server on `control` (its own address, or a listener shared with other servers): its device,
// transport and session server, `ready` once it listens, then one client served; its case.
template <typename Control>
CaseResult serve(const XferPlan& plan, Backend& backend, const Control& control, std::ostream& log,
                 const std::stop_token& stop, const std::function<void(const SessionServer&)>& ready) {
  // Device memory the transport cannot reach is exposed through a host window the server copies
  // to and from around each of the client's passes (staged_device_memory.hpp).
  ServingEndpoint end(backend, plan.device, plan.transport, UnreachableDeviceMemory::stage);
  SessionOptions options = xfer_session_options(plan);
  options.stop = stop;
  SessionServer server(end.transport(), control, plan.data, std::move(options), end.memory_factory(), log);
  const std::string device_name = end.device().info().name;
  server.set_description(fmt::format("{} device {} ({})", backend.name(), plan.device, device_name));
  if (ready) ready(server);
  const SessionReport report = server.serve_one();

  const TransportInfo info = end.transport().info();
  CaseResult r;
  r.job = "xfer";
  r.name = "server";
  r.title = fmt::format("served {} over {}: {} region(s), {} bytes exposed", report.client, info.name, report.regions,
                        report.exposed_bytes);
  r.labels = {{"role", "server"}, {"transport", info.name}, {"client", report.client}};
  r.config = XferServerConfig{
      .listen = server.control_address().to_string(), .data = server.data_address().to_string(),
      .client = report.client, .clients = plan.clients, .wait_ms = plan.wait.count(), .transport = info,
      .backend = std::string(backend.name()), .device_name = device_name, .device = plan.device};
  r.metrics.push_back({"regions", static_cast<double>(report.regions), "regions", "regions the client asked for"});
  r.metrics.push_back(
      {"exposed_bytes", static_cast<double>(report.exposed_bytes), "B", "sum of the sizes of those regions"});
  return r;
}

}  // namespace

std::vector<CaseResult> run_xfer_server_clients(
    const XferPlan& plan, Backend& backend, std::ostream& log,
    const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_ready,
    const CaseSink& on_case, const std::stop_token& stop) {
  validate_xfer_plan(plan);
  if (plan.clients == 1) {
    CaseResult c = serve(plan, backend, plan.control, log, stop, [&](const SessionServer& s) {
      if (on_ready) on_ready(s.control_address(), s.data_address());
    });
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
      c = serve(plan, backend, listener, logs[i], stop, [&](const SessionServer& s) {
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
