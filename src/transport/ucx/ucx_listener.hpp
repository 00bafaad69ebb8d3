#pragma once
// Accepts UCX peers: a TCP listening socket on which each connecting peer and this side trade
// UCP worker addresses (ucx_bootstrap.hpp), then an endpoint to the peer's address.
#include <memory>
#include <optional>

#include "core/unique_fd.hpp"
#include "transport/transport.hpp"
#include "transport/ucx/ucx_lanes.hpp"
#include "transport/ucx/ucx_worker.hpp"

namespace xb::ucx {

class UcxListener final : public Listener {
 public:
  // Throws TransportError naming the address when it cannot listen there (in use, no interface).
  UcxListener(std::shared_ptr<Worker> worker, const SocketAddress& address, std::optional<Protocol> forced);

  SocketAddress address() const override;
  // Makes progress on the worker while it waits (its endpoints keep being served).
  std::unique_ptr<Endpoint> accept(std::chrono::milliseconds timeout, ConnectionTicket ticket = {}) override;

 private:
  std::shared_ptr<Worker> worker_;
  std::optional<Protocol> forced_;
  UniqueFd socket_;
};

}  // namespace xb::ucx
