#pragma once
// SocketAddress <-> sockaddr for UCX's listener and client endpoints. Private to the UCX transport
// (the numeric host of a SocketAddress is all it needs), so it does not depend on how address.cpp
// resolves names.
#include <sys/socket.h>

#include <string>

#include "transport/address.hpp"

namespace xb::ucx {

// Throws TransportError when the host is not a numeric IPv4/IPv6 address.
socklen_t to_sockaddr(const SocketAddress& address, sockaddr_storage& storage);
SocketAddress from_sockaddr(const sockaddr_storage& storage);
// "127.0.0.1:4000", "[::1]:4000".
std::string format_address(const SocketAddress& address);

}  // namespace xb::ucx
