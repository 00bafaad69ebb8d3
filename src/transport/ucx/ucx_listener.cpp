#include "transport/ucx/ucx_listener.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <fmt/format.h>

#include "transport/ticket_gate.hpp"
#include "transport/ucx/ucx_bootstrap.hpp"
#include "transport/ucx/ucx_endpoint.hpp"
#include "transport/ucx/ucx_sockaddr.hpp"

namespace xb::ucx {
namespace {

// The least time a connected peer gets to send its worker address.
constexpr std::chrono::seconds kExchangeBound{10};

}  // namespace

UcxListener::UcxListener(std::shared_ptr<Worker> worker, const SocketAddress& address, std::optional<Protocol> forced)
    : worker_(std::move(worker)), forced_(forced), socket_(listen_on(address)) {}

SocketAddress UcxListener::address() const { return local_address(socket_.get()); }

std::unique_ptr<Endpoint> UcxListener::accept(std::chrono::milliseconds timeout, ConnectionTicket ticket) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // Only a connection that presented the session's ticket learns this worker's address.
  TicketGate gate(ticket);
  for (;;) {
    UniqueFd connection = gate.admit(socket_.get());
    if (connection.valid()) {
      const int one = 1;
      ::setsockopt(connection.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      const std::string name = format_address(remote_address(connection.get()));
      // A peer that connected gets its exchange finished even when accept's own wait is short
      // (a server polling accept with small timeouts must not drop a slow but real peer).
      const auto exchange_deadline = std::max(deadline, std::chrono::steady_clock::now() + kExchangeBound);
      try {
        const auto theirs = exchange_addresses(connection.get(), worker_->address(), exchange_deadline, name);
        return UcxEndpoint::create(worker_, theirs, name, std::move(connection), forced_);
      } catch (const TransportError&) {
        // Not a UCX peer of ours (a port scan, garbage, a peer that vanished): wait for the next.
        if (std::chrono::steady_clock::now() >= deadline) throw;
        continue;
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      throw TransportError(fmt::format("ucx accept on {}: no connection within {} ms{}", format_address(address()),
                                       timeout.count(), turned_away_text(gate)));
    }
    // Serve the endpoints that exist meanwhile; sleep on the socket when there is nothing to do.
    if (!worker_->progress()) {
      pollfd p{socket_.get(), POLLIN, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
      ::poll(&p, 1, static_cast<int>(std::min<long long>(left + 1, 10)));
    }
  }
}

}  // namespace xb::ucx
