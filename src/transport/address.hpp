#pragma once
// Socket addresses as users type them: "HOST:PORT", "HOST" (with a default port), IPv4 dotted
// quads, "[v6]:port", "localhost". Parsed before anything connects, so bad input is exit 2.
#include <cstdint>
#include <string>
#include <string_view>
#include <sys/socket.h>

namespace xb {

struct SocketAddress {
  std::string host;        // as resolved to a numeric address: "127.0.0.1", "::1"
  std::uint16_t port = 0;  // 0: any (listen) / not given
  std::string to_string() const;  // "127.0.0.1:20000", "[::1]:20000"
  // The sockaddr for bind/connect/ucp_listener; `storage` receives it, the length is returned.
  socklen_t to_sockaddr(sockaddr_storage& storage) const;
};

// Throws UsageError "FLAG: 'TEXT' is not HOST:PORT (…)" naming `flag`. A port must be 1..65535
// (0 allowed only when allow_any_port, for listening). Names other than localhost are resolved
// with getaddrinfo (numeric results only).
SocketAddress parse_address(std::string_view text, std::string_view flag, bool port_required,
                            bool allow_any_port = false);
// A server's listening address: "HOST" (then `default_port`), "HOST:PORT", "[v6]:PORT"; ":0" or
// port 0 asks for any port. UsageError naming `flag`.
SocketAddress parse_listen_address(std::string_view text, std::string_view flag, std::uint16_t default_port);
// Whether two literal IPv4 or IPv6 addresses are the same address (byte by byte, so "::1" and
// "0:0:0:0:0:0:0:1" are); false when either is not a literal address.
bool same_ip(const std::string& a, const std::string& b);
// A bare port: "20000". Throws UsageError naming `flag`.
std::uint16_t parse_port(std::string_view text, std::string_view flag, bool allow_zero = false);

}  // namespace xb
