// The UCX transport: one UCP context and worker (ucx_worker), listeners (ucx_listener), endpoints
// (ucx_endpoint, with the active-message path of ucx_am), regions (ucx_region).
#include "transport/ucx/ucx_transport.hpp"

#include "transport/ticket_gate.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <thread>

#include "transport/ucx/ucx_bootstrap.hpp"
#include "transport/ucx/ucx_endpoint.hpp"
#include "transport/ucx/ucx_lanes.hpp"
#include "transport/ucx/ucx_listener.hpp"
#include "transport/ucx/ucx_region.hpp"
#include "transport/ucx/ucx_sockaddr.hpp"
#include "transport/ucx/ucx_status.hpp"
#include "transport/ucx/ucx_worker.hpp"

namespace xb {
namespace ucx {
namespace {

// Pause between connection attempts while the server's listener does not exist yet.
constexpr std::chrono::milliseconds kRetryPause{50};

std::string environment_setting(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : fmt::format("{}={}", name, value);
}

class UcxTransport final : public Transport {
 public:
  UcxTransport() : forced_(protocol_from_environment()), worker_(std::make_shared<Worker>()) {}


  std::string_view name() const override { return "ucx"; }

  std::unique_ptr<LocalRegion> register_memory(void* data, std::size_t bytes) override {
    return std::make_unique<UcxLocalRegion>(worker_, data, bytes);
  }

  std::unique_ptr<LocalRegion> allocate_memory(std::size_t bytes) override {
    return std::make_unique<UcxLocalRegion>(worker_, bytes, UcxLocalRegion::Allocate{});
  }

  std::vector<std::string> device_memory_types() const override { return worker_->device_memory_types(); }

  std::unique_ptr<Listener> listen(const SocketAddress& address) override {
    return std::make_unique<UcxListener>(worker_, address, forced_);
  }

  std::unique_ptr<Endpoint> connect(const SocketAddress& address, std::chrono::milliseconds timeout,
                                    ConnectionTicket ticket = {}) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    const std::string name = format_address(address);
    std::string last_error;
    for (;;) {
      UniqueFd connection = connect_to(address, deadline, last_error);
      if (connection.valid()) {
        present_ticket(connection.get(), ticket, deadline, "ucx peer " + name);
        const auto theirs = exchange_addresses(connection.get(), worker_->address(), deadline, name);
        auto endpoint = UcxEndpoint::create(worker_, theirs, name, std::move(connection), forced_);
        // The first message answered proves the wire-up complete on both sides.
        if (endpoint->handshake(deadline, last_error)) return endpoint;
        throw TransportError(fmt::format("ucx connect to {}: no answer over UCX within {} ms ({})", name,
                                         timeout.count(), last_error));
      }
      // Nobody listening yet: the server may start later.
      if (std::chrono::steady_clock::now() + kRetryPause >= deadline) {
        throw TransportError(fmt::format("ucx connect to {}: nobody listening within {} ms (last: {})", name,
                                         timeout.count(), last_error));
      }
      std::this_thread::sleep_for(kRetryPause);
    }
  }

  bool progress() override { return worker_->progress(); }
  void wait(std::chrono::milliseconds timeout) override { worker_->wait(timeout); }

  TransportInfo info() const override {
    TransportInfo out;
    out.name = "ucx";
    out.version = ucp_get_version_string();
    std::string protocol = worker_->observed.protocol;
    out.lanes = worker_->observed.lanes;
    for (const Peer* peer : worker_->live_peers()) {
      const auto lanes = endpoint_lanes(peer->ep);
      if (lanes.empty()) continue;
      out.lanes = describe_lanes(lanes);
      if (protocol.empty()) protocol = to_string(choose_protocol(lanes, forced_));
      break;
    }
    std::vector<std::string> settings;
    for (const char* name : {"UCX_TLS", "UCX_NET_DEVICES"}) {
      if (auto s = environment_setting(name); !s.empty()) settings.push_back(std::move(s));
    }
    if (!protocol.empty()) {
      settings.push_back(fmt::format("protocol={}{}", protocol, forced_ ? " (XFERBENCH_UCX_PROTOCOL)" : " (auto)"));
    }
    out.settings = fmt::format("{}", fmt::join(settings, " "));
    return out;
  }

 private:
  std::optional<Protocol> forced_;
  std::shared_ptr<Worker> worker_;
};

}  // namespace
}  // namespace ucx

std::unique_ptr<Transport> make_ucx_transport() { return std::make_unique<ucx::UcxTransport>(); }

}  // namespace xb
