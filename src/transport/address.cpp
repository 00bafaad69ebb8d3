#include "transport/address.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "core/error.hpp"

namespace xb {
namespace {

[[noreturn]] void bad_address(std::string_view text, std::string_view flag, std::string_view why) {
  throw UsageError(fmt::format("{}: '{}' is not HOST:PORT ({})", flag, text, why));
}

// Digits only, no sign, no spaces: "20000". nullopt when it is not a number in 0..65535.
std::optional<std::uint16_t> port_number(std::string_view text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

bool is_numeric(const std::string& host, int family) {
  unsigned char buffer[sizeof(in6_addr)];
  return inet_pton(family, host.c_str(), buffer) == 1;
}

// A host as typed → a numeric address. Numeric forms pass through; "localhost" is 127.0.0.1 (the
// control port listens on loopback by default, and "localhost" resolving to ::1 first on some
// machines would then miss it); other names go through getaddrinfo, IPv4 preferred.
std::optional<std::string> resolve_host(const std::string& host) {
  if (host == "localhost") return std::string("127.0.0.1");
  if (is_numeric(host, AF_INET) || is_numeric(host, AF_INET6)) return host;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) return std::nullopt;
  const addrinfo* pick = found;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    if (a->ai_family == AF_INET) {
      pick = a;
      break;
    }
  }
  char numeric[NI_MAXHOST];
  const int rc = getnameinfo(pick->ai_addr, pick->ai_addrlen, numeric, sizeof numeric, nullptr, 0, NI_NUMERICHOST);
  freeaddrinfo(found);
  if (rc != 0) return std::nullopt;
  return std::string(numeric);
}

}  // namespace

std::string SocketAddress::to_string() const {
  if (host.find(':') != std::string::npos) return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

socklen_t SocketAddress::to_sockaddr(sockaddr_storage& storage) const {
  std::memset(&storage, 0, sizeof storage);
  const std::string numeric = host.empty() ? std::string("0.0.0.0") : host == "localhost" ? "127.0.0.1" : host;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
  if (inet_pton(AF_INET, numeric.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    return sizeof(sockaddr_in);
  }
  // IPv6, possibly with a scope ("fe80::1%eth0"), which only getaddrinfo understands.
  addrinfo hints{};
  hints.ai_family = AF_INET6;
  hints.ai_flags = AI_NUMERICHOST;
  addrinfo* found = nullptr;
  if (getaddrinfo(numeric.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) {
    throw std::invalid_argument(fmt::format("'{}' is not a numeric IPv4 or IPv6 address", host));
  }
  std::memcpy(&storage, found->ai_addr, found->ai_addrlen);
  const auto length = static_cast<socklen_t>(found->ai_addrlen);
  freeaddrinfo(found);
  reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port = htons(port);
  return length;
}

SocketAddress parse_address(std::string_view text, std::string_view flag, bool port_required, bool allow_any_port) {
  if (text.empty()) bad_address(text, flag, "empty");
  std::string host;
  std::optional<std::string_view> port_text;
  if (text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) bad_address(text, flag, "'[' without ']'");
    host = std::string(text.substr(1, close - 1));
    const auto rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') bad_address(text, flag, "expected ':PORT' after ']'");
      port_text = rest.substr(1);
    }
    if (!is_numeric(host, AF_INET6)) bad_address(text, flag, "the part in brackets must be an IPv6 address");
  } else {
    const auto colon = text.rfind(':');
    if (colon != std::string_view::npos && text.find(':') != colon) {
      // Several colons and no brackets: a bare IPv6 address, which cannot carry a port.
      host = std::string(text);
      if (!is_numeric(host, AF_INET6)) bad_address(text, flag, "write an IPv6 address with a port as [ADDRESS]:PORT");
    } else if (colon != std::string_view::npos) {
      host = std::string(text.substr(0, colon));
      port_text = text.substr(colon + 1);
    } else {
      host = std::string(text);
    }
  }
  if (host.empty()) bad_address(text, flag, "no host");

  SocketAddress address;
  if (port_text) {
    const auto port = port_number(*port_text);
    if (!port || (*port == 0 && !allow_any_port)) {
      bad_address(text, flag, allow_any_port ? "the port must be 0..65535" : "the port must be 1..65535");
    }
    address.port = *port;
  } else if (port_required) {
    bad_address(text, flag, "no port");
  }
  const auto numeric = resolve_host(host);
  if (!numeric) bad_address(text, flag, fmt::format("cannot resolve host '{}'", host));
  address.host = *numeric;
  return address;
}

std::uint16_t parse_port(std::string_view text, std::string_view flag, bool allow_zero) {
  const auto port = port_number(text);
  if (!port || (*port == 0 && !allow_zero)) {
    throw UsageError(fmt::format("{}: '{}' is not a port ({})", flag, text,
                                 allow_zero ? "a number 0..65535" : "a number 1..65535"));
  }
  return *port;
}

bool same_ip(const std::string& a, const std::string& b) {
  const auto bytes_of = [](const std::string& text, unsigned char (&out)[16]) -> int {
    if (inet_pton(AF_INET, text.c_str(), out) == 1) return 4;
    if (inet_pton(AF_INET6, text.c_str(), out) == 1) return 16;
    return 0;
  };
  unsigned char x[16] = {}, y[16] = {};
  const int n = bytes_of(a, x);
  return n != 0 && n == bytes_of(b, y) && std::memcmp(x, y, static_cast<std::size_t>(n)) == 0;
}

SocketAddress parse_listen_address(std::string_view text, std::string_view flag, std::uint16_t default_port) {
  SocketAddress a = parse_address(text, flag, false, true);
  // A port is named by "[v6]:PORT" or by one colon (a bare IPv6 address has more).
  const bool names_port = !text.empty() && text.front() == '['
                              ? text.find("]:") != std::string_view::npos
                              : std::count(text.begin(), text.end(), ':') == 1;
  if (!names_port) a.port = default_port;
  return a;
}

}  // namespace xb
