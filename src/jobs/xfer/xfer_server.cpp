// The server side of the xfer job: expose the memory one client asks for, in the place it asks
// for, on this server's device, until the client says it is done.
#include <fmt/format.h>

#include "jobs/endpoint/device_path.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "jobs/xfer/xfer_job.hpp"
#include "transport/session.hpp"

namespace xb {

CaseResult run_xfer_server(const XferPlan& plan, Backend& backend, std::ostream& log,
                           const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_ready) {
  validate_xfer_plan(plan);
  std::unique_ptr<Device> device = backend.open_device(plan.device);
  std::unique_ptr<Transport> transport = make_transport(plan.transport);
  Device& dev = *device;
  Transport& tr = *transport;
  const ExposedMemoryFactory factory = [&backend, &dev, &tr](std::uint64_t bytes,
                                                            RegionPlace place) -> std::unique_ptr<ExposedMemory> {
    if (place == RegionPlace::device) require_registrable_device_memory(backend, tr);
    return EndpointMemory::make(backend, dev, place, bytes, tr);
  };
  SessionServer server(*transport, plan.control, plan.data, xfer_session_options(plan), factory, log);
  server.set_description(fmt::format("{} device {} ({})", backend.name(), plan.device, device->info().name));
  if (on_ready) on_ready(server.control_address(), server.data_address());
  const SessionReport report = server.serve_one();

  const TransportInfo info = transport->info();
  CaseResult r;
  r.job = "xfer";
  r.name = "server";
  r.title = fmt::format("served {} over {}: {} region(s), {} bytes exposed", report.client, info.name, report.regions,
                        report.exposed_bytes);
  r.labels = {{"role", "server"}, {"transport", info.name}, {"client", report.client}};
  r.config = {{"role", "server"},
              {"listen", server.control_address().to_string()},
              {"data", server.data_address().to_string()},
              {"client", report.client},
              {"wait_ms", plan.wait.count()},
              {"transport",
               {{"name", info.name}, {"version", info.version}, {"lanes", info.lanes}, {"settings", info.settings}}},
              {"backend", std::string(backend.name())},
              {"device", plan.device},
              {"device_name", device->info().name}};
  r.metrics.push_back({"regions", static_cast<double>(report.regions), "regions", "regions the client asked for"});
  r.metrics.push_back(
      {"exposed_bytes", static_cast<double>(report.exposed_bytes), "B", "sum of the sizes of those regions"});
  return r;
}

}  // namespace xb
