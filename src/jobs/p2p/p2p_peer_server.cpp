#include "jobs/p2p/p2p_peer_server.hpp"

#include <utility>

#include "jobs/link/link_server.hpp"

namespace xb {

P2pPeerServer::P2pPeerServer(const std::string& host, std::string transport, std::string token,
                             std::chrono::milliseconds wait, int device, Backend& backend) {
  LinkServerPlan plan;
  plan.control = SocketAddress{host, 0};
  plan.data = SocketAddress{host, 0};
  plan.transport = std::move(transport);
  plan.token = std::move(token);
  plan.wait = wait;
  plan.device = device;
  auto ready = ready_.get_future();
  thread_ = std::thread([this, plan = std::move(plan), &backend] {
    bool listening = false;
    try {
      run_link_server(plan, backend, log_, [&](const SocketAddress& control, const SocketAddress&) {
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
  });
  try {
    control_ = ready.get();
  } catch (...) {
    thread_.join();
    throw;
  }
}

P2pPeerServer::~P2pPeerServer() {
  if (thread_.joinable()) thread_.join();
}

void P2pPeerServer::join() {
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace xb
