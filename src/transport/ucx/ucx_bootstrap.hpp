#pragma once
// How two UCX workers find each other: a TCP connection on which each side sends its UCP worker
// address, after which both create their endpoint to the other's address (UCX pairs the two).
//
// Why not ucp_listener/sockaddr endpoints: in UCX 1.13 a sockaddr endpoint only connects when a
// transport of the connection manager's device is in UCX_TLS (UCX_TLS=posix,sysv,cma,self cannot
// connect at all) and selects its lanes from that device; ucx_perftest (and MPI) connect by
// worker address, which gives every UCX_TLS the lanes UCX would choose for the pair.
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"
#include "transport/address.hpp"

namespace xb::ucx {

using Deadline = std::chrono::steady_clock::time_point;

// A listening TCP socket (non-blocking). Throws TransportError naming the address.
UniqueFd listen_on(const SocketAddress& address);
SocketAddress local_address(int fd);
SocketAddress remote_address(int fd);
// One pending connection, or an invalid fd when none is waiting.
UniqueFd accept_one(int listen_fd);
// Connects before the deadline; an invalid fd when refused or unreachable (the listener may
// not exist yet: the caller retries), with the reason in `why`.
UniqueFd connect_to(const SocketAddress& address, Deadline deadline, std::string& why);
// Sends `mine`, receives the peer's (bounded size), both before the deadline. Throws
// TransportError naming the peer on a timeout, a closed connection or a malformed message.
std::vector<std::uint8_t> exchange_addresses(int fd, std::span<const std::uint8_t> mine, Deadline deadline,
                                             const std::string& peer);
// True when the peer closed the connection (or it broke): the peer process is gone.
bool peer_hung_up(int fd);

}  // namespace xb::ucx
