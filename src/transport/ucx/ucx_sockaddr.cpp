#include "transport/ucx/ucx_sockaddr.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>
#include <fmt/format.h>

#include "transport/transport.hpp"

namespace xb::ucx {

socklen_t to_sockaddr(const SocketAddress& address, sockaddr_storage& storage) {
  std::memset(&storage, 0, sizeof storage);
  auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
  if (inet_pton(AF_INET, address.host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(address.port);
    return sizeof(sockaddr_in);
  }
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
  if (inet_pton(AF_INET6, address.host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(address.port);
    return sizeof(sockaddr_in6);
  }
  throw TransportError(fmt::format("ucx: '{}' is not a numeric IPv4 or IPv6 address", address.host));
}

SocketAddress from_sockaddr(const sockaddr_storage& storage) {
  SocketAddress out;
  char text[INET6_ADDRSTRLEN] = {};
  if (storage.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&storage);
    inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    out.port = ntohs(v4->sin_port);
  } else if (storage.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&storage);
    inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    out.port = ntohs(v6->sin6_port);
  }
  out.host = text;
  return out;
}

std::string format_address(const SocketAddress& address) {
  if (address.host.find(':') != std::string::npos) return fmt::format("[{}]:{}", address.host, address.port);
  return fmt::format("{}:{}", address.host, address.port);
}

}  // namespace xb::ucx
