#pragma once
// The socket calls the control channel and the TCP transport share: listening, connecting with a
// deadline (retrying while the peer is not up yet), waiting on one descriptor, and the addresses
// of either end. Every failure names the call and the address.
#include <chrono>
#include <optional>
#include <stop_token>
#include <string>

#include "core/unique_fd.hpp"
#include "transport/address.hpp"

namespace xb {

using Deadline = std::chrono::steady_clock::time_point;
inline Deadline deadline_after(std::chrono::milliseconds timeout) { return std::chrono::steady_clock::now() + timeout; }
// Milliseconds left until `deadline` for poll(): 0 once passed, rounded up so a poll never wakes
// just before the deadline and spins.
int poll_timeout_ms(Deadline deadline);

// A non-blocking, close-on-exec TCP socket bound to `address` and listening. Throws SystemError
// "bind(127.0.0.1:20000)".
UniqueFd listen_tcp(const SocketAddress& address, int backlog);

// Accepts one connection if one is pending (non-blocking, close-on-exec); an invalid fd if none.
UniqueFd accept_tcp(int listen_fd);

// Connects to `address` (non-blocking socket), retrying a refused or unreachable connection every
// 50 ms until `deadline` (the peer may start later). nullopt when the deadline passed; the last
// error's text is left in `last_error`. `stop` (an interrupt, core/stop.hpp) is looked at at least
// every 50 ms meanwhile: set, it throws Interrupted.
std::optional<UniqueFd> connect_tcp(const SocketAddress& address, Deadline deadline, std::string& last_error,
                                    const std::stop_token& stop = {});

// Waits until `fd` is ready for `events` (POLLIN/POLLOUT) or the deadline passes; true when ready
// (including error/hang-up, which the next read or write reports).
bool wait_ready(int fd, short events, Deadline deadline);

SocketAddress local_address(int fd);
SocketAddress peer_address(int fd);

// TCP_NODELAY (requests are small and must not wait for Nagle) and keep-alive.
void set_low_latency(int fd);

// The bound address of `listen_fd`, or for a wildcard bind (0.0.0.0, ::), the local address a
// connected peer reached us on (`connected_fd`): what to announce to that peer.
SocketAddress announce_address(const SocketAddress& bound, int connected_fd);

}  // namespace xb
