#include "jobs/link/link_server.hpp"

#include <memory>

#include "jobs/endpoint/device_path.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "transport/transport.hpp"

namespace xb {

SessionReport run(const LinkServerPlan& plan, JobContext& ctx) {
  Backend& backend = ctx.need_backend("link server");
  std::ostringstream nowhere;  // no log given: refused connections are not shown
  std::ostream& log = ctx.log != nullptr ? *ctx.log : nowhere;
  std::unique_ptr<Transport> transport = make_transport(plan.transport);
  std::unique_ptr<Device> device = backend.open_device(plan.device);
  Device& dev = *device;
  Transport& tr = *transport;
  const ExposedMemoryFactory factory = [&backend, &dev, &tr](std::uint64_t bytes,
                                                             RegionPlace place) -> std::unique_ptr<ExposedMemory> {
    if (place == RegionPlace::device) require_registrable_device_memory(backend, tr);
    return EndpointMemory::make(backend, dev, place, bytes, tr);
  };
  SessionOptions options;
  options.token = plan.token;
  options.wait = plan.wait;
  options.caps = plan.caps;
  SessionServer server(*transport, plan.control, plan.data, options, factory, log);
  if (ctx.on_listening) ctx.on_listening(server.control_address(), server.data_address());
  return server.serve_one();
}

LinkServerThread::LinkServerThread(const std::string& host, std::string transport, std::string token,
                                   std::chrono::milliseconds wait, int device, Backend& backend, SessionCaps caps) {
  LinkServerPlan plan;
  plan.control = SocketAddress{host, 0};
  plan.data = SocketAddress{host, 0};
  plan.transport = std::move(transport);
  plan.token = std::move(token);
  plan.wait = wait;
  plan.device = device;
  plan.caps = std::move(caps);
  auto ready = ready_.get_future();
  thread_ = std::thread([this, plan = std::move(plan), &backend]() mutable { serve(std::move(plan), backend); });
  try {
    control_ = ready.get();
  } catch (...) {
    thread_.join();  // it already ended: the promise held its error
    throw;
  }
}

LinkServerThread::~LinkServerThread() {
  if (thread_.joinable()) thread_.join();
}

void LinkServerThread::join() {
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void LinkServerThread::serve(LinkServerPlan plan, Backend& backend) {
  // An error before listening is the constructor's (through the promise); after, join()'s.
  bool listening = false;
  try {
    JobContext ctx{.backend = &backend, .log = &log_, .on_listening = [&](const SocketAddress& control, const SocketAddress&) {
                     listening = true;
                     ready_.set_value(control);
                   }};
    run(plan, ctx);
  } catch (...) {
    if (listening) {
      error_ = std::current_exception();
    } else {
      ready_.set_exception(std::current_exception());
    }
  }
}

}  // namespace xb
