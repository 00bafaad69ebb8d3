#include "judge/route_devices.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>

#include "core/unique_fd.hpp"
#include "judge/nic_ceiling.hpp"

namespace xb {
namespace {

// UCX transports that move data through memory on this host, not through a network device.
bool is_memory_transport(const std::string& tl) {
  static const std::set<std::string> kMemory{"posix", "sysv", "cma", "xpmem", "knem", "self",
                                             "cuda_ipc", "cuda_copy", "rocm_ipc", "rocm_copy", "gdr_copy"};
  return kMemory.count(tl) > 0;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(' ');
  const auto e = s.find_last_not_of(' ');
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

void add_once(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

}  // namespace

std::string interface_toward(const std::string& peer_ip, std::string& why) {
  sockaddr_storage peer{};
  socklen_t length = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&peer);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&peer);
  if (inet_pton(AF_INET, peer_ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(9);  // any port: connect() on a UDP socket only picks the route
    length = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, peer_ip.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(9);
    length = sizeof(sockaddr_in6);
  } else {
    why = fmt::format("'{}' is not a numeric address", peer_ip);
    return "";
  }
  const UniqueFd fd(socket(peer.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd.valid() || connect(fd.get(), reinterpret_cast<sockaddr*>(&peer), length) != 0) {
    why = fmt::format("no route to {}: {}", peer_ip, std::strerror(errno));
    return "";
  }
  sockaddr_storage local{};
  socklen_t local_length = sizeof(local);
  if (getsockname(fd.get(), reinterpret_cast<sockaddr*>(&local), &local_length) != 0) {
    why = fmt::format("getsockname after routing to {}: {}", peer_ip, std::strerror(errno));
    return "";
  }
  char text[INET6_ADDRSTRLEN] = {};
  const void* at = local.ss_family == AF_INET ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(&local)->sin_addr)
                                              : static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(&local)->sin6_addr);
  if (inet_ntop(local.ss_family, at, text, sizeof(text)) == nullptr) {
    why = fmt::format("inet_ntop after routing to {}: {}", peer_ip, std::strerror(errno));
    return "";
  }
  const std::string name = interface_holding(text, why);
  if (name.empty()) why = fmt::format("the source address the kernel chose for {} ({}) is on no interface", peer_ip, text);
  return name;
}

std::string interface_holding(const std::string& ip, std::string& why) {
  in6_addr want6{};
  in_addr want4{};
  const bool v4 = inet_pton(AF_INET, ip.c_str(), &want4) == 1;
  if (!v4 && inet_pton(AF_INET6, ip.c_str(), &want6) != 1) {
    why = fmt::format("'{}' is not a numeric address", ip);
    return "";
  }
  ifaddrs* raw = nullptr;
  if (getifaddrs(&raw) != 0) {
    why = fmt::format("getifaddrs: {}", std::strerror(errno));
    return "";
  }
  const std::unique_ptr<ifaddrs, decltype(&freeifaddrs)> list(raw, freeifaddrs);
  for (const ifaddrs* a = raw; a != nullptr; a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != (v4 ? AF_INET : AF_INET6)) continue;
    const bool same = v4 ? std::memcmp(&reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr, &want4, sizeof(in_addr)) == 0
                         : std::memcmp(&reinterpret_cast<const sockaddr_in6*>(a->ifa_addr)->sin6_addr, &want6, sizeof(in6_addr)) == 0;
    if (same) return a->ifa_name;
  }
  why = fmt::format("{} is on no interface of this host", ip);
  return "";
}

RouteDevices route_devices(std::string_view lanes, const std::string& peer_ip) {
  RouteDevices r;
  bool memory = false;
  std::size_t start = 0;
  while (start <= lanes.size()) {
    const std::size_t comma = std::min(lanes.find(',', start), lanes.size());
    const std::string lane = trim(lanes.substr(start, comma - start));
    start = comma + 1;
    const auto slash = lane.find('/');
    if (slash == std::string::npos) continue;  // "tcp": the plain transport names no device
    const std::string tl = lane.substr(0, slash), device = lane.substr(slash + 1);
    if (is_memory_transport(tl) || device == "memory") {
      memory = true;
    } else if (device.find(':') != std::string::npos) {
      add_once(r.rdma_ports, device);  // "mlx5_0:1"
    } else {
      add_once(r.interfaces, device);  // "eth0", "lo"
    }
  }
  if (r.interfaces.empty() && r.rdma_ports.empty()) {
    if (memory) {
      r.why = fmt::format("the peer is on this host: the data moved through memory ({})", lanes);
      return r;
    }
    std::string why;
    const std::string name = interface_toward(peer_ip, why);
    if (name.empty()) {
      r.why = why;
      return r;
    }
    r.interfaces.push_back(name);
  }
  // Loopback is memory too; it is never a rail beside a real device.
  if (r.rdma_ports.empty() && r.interfaces.size() == 1 && (r.interfaces[0] == "lo" || r.interfaces[0].rfind("lo.", 0) == 0)) {
    r.why = fmt::format("the peer ({}) is this host: loopback, no network device", peer_ip);
    r.interfaces.clear();
  }
  return r;
}

Ceiling route_ceiling(const std::filesystem::path& sysfs, const RouteDevices& devices) {
  std::vector<Ceiling> parts;
  for (const auto& port : devices.rdma_ports) parts.push_back(rdma_port_ceiling(sysfs, port).ceiling);
  for (const auto& name : devices.interfaces) parts.push_back(nic_ceiling(sysfs, name).ceiling);
  if (parts.empty()) {
    Ceiling c;
    c.derivation = devices.why;
    return c;
  }
  Ceiling c = sum_of(parts);
  if (parts.size() > 1) c.derivation = fmt::format("the sum over {} rails: {}", parts.size(), c.derivation);
  return c;
}

}  // namespace xb
