#include "jobs/endpoint/peer_server.hpp"

#include <utility>

#include "jobs/endpoint/device_path.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "jobs/endpoint/staged_device_memory.hpp"

namespace xb {

ServingEndpoint::ServingEndpoint(Backend& backend, int device, const std::string& transport,
                                 UnreachableDeviceMemory unreachable)
    : backend_(backend),
      unreachable_(unreachable),
      device_(backend.open_device(device)),
      transport_(make_transport(transport)) {}

ExposedMemoryFactory ServingEndpoint::memory_factory() {
  return [this](std::uint64_t bytes, RegionPlace place) -> std::unique_ptr<ExposedMemory> {
    if (place == RegionPlace::device) {
      if (unreachable_ == UnreachableDeviceMemory::refuse) {
        require_registrable_device_memory(backend_, *transport_);
      } else if (!choose_device_path({backend_.name(), backend_.capabilities().device_memory_in_host_ram,
                                      transport_->name(), transport_->device_memory_types()})
                      .registered) {
        return make_staged_device_memory(backend_, *device_, bytes);
      }
    }
    return EndpointMemory::make(backend_, *device_, place, bytes, *transport_);
  };
}

SessionReport serve_peer(const PeerServerPlan& plan, Backend& backend, std::ostream& log,
                         const std::function<void(const SocketAddress& control, const SocketAddress& data)>& on_listening) {
  ServingEndpoint end(backend, plan.device, plan.transport, UnreachableDeviceMemory::refuse);
  SessionOptions options;
  options.token = plan.token;
  options.wait = plan.wait;
  options.caps = plan.caps;
  SessionServer server(end.transport(), plan.control, plan.data, options, end.memory_factory(), log);
  if (on_listening) on_listening(server.control_address(), server.data_address());
  return server.serve_one();
}

PeerServerThread::PeerServerThread(const std::string& host, std::string transport, std::string token,
                                   std::chrono::milliseconds wait, int device, Backend& backend, SessionCaps caps) {
  PeerServerPlan plan{.control = SocketAddress{host, 0},
                      .data = SocketAddress{host, 0},
                      .transport = std::move(transport),
                      .token = std::move(token),
                      .wait = wait,
                      .device = device,
                      .caps = std::move(caps)};
  auto ready = ready_.get_future();
  thread_ = std::thread([this, plan = std::move(plan), &backend]() mutable { serve(std::move(plan), backend); });
  try {
    control_ = ready.get();
  } catch (...) {
    thread_.join();  // it already ended: the promise held its error
    throw;
  }
}

PeerServerThread::~PeerServerThread() {
  if (thread_.joinable()) thread_.join();
}

void PeerServerThread::join() {
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void PeerServerThread::serve(PeerServerPlan plan, Backend& backend) {
  // An error before listening is the constructor's (through the promise); after, join()'s.
  bool listening = false;
  try {
    serve_peer(plan, backend, log_, [&](const SocketAddress& control, const SocketAddress&) {
      listening = true;
      ready_.set_value(control);
    });
  } catch (...) {
    if (listening) {
      error_ = std::current_exception();
    } else {
      ready_.set_exception(std::current_exception());
    }
  }
}

}  // namespace xb
