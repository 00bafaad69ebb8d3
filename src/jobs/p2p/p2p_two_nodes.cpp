#include "jobs/p2p/p2p_two_nodes.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>

#include <array>
#include <stdexcept>

#include "core/plan_error.hpp"

namespace xb {
namespace {

// A literal address as (family, bytes), comparable; family 0 when it is none.
struct RawAddress {
  int family = 0;
  std::array<unsigned char, 16> bytes{};
};

RawAddress raw_address(const std::string& text) {
  RawAddress a;
  if (inet_pton(AF_INET, text.c_str(), a.bytes.data()) == 1) {
    a.family = AF_INET;
  } else if (inet_pton(AF_INET6, text.c_str(), a.bytes.data()) == 1) {
    a.family = AF_INET6;
  }
  return a;
}

}  // namespace

void check_p2p_ip(const std::string& value, const std::string& flag_name) {
  if (raw_address(value).family == 0) throw PlanError(fmt::format("{} {}: not a valid IP address", flag_name, value));
}

void check_p2p_address_pair(const std::string& peer, const std::string& self) {
  const std::string peer_ip = flag("p2p.peer_ip"), host_ip = flag("p2p.host_ip");
  check_p2p_ip(peer, peer_ip);
  check_p2p_ip(self, host_ip);
  const RawAddress p = raw_address(peer), h = raw_address(self);
  if (p.family != h.family) {
    throw PlanError(fmt::format("{} {}: not the address family of {} {}", peer_ip, peer, host_ip, self));
  }
  if (p.bytes == h.bytes) {
    throw PlanError(fmt::format("{} {}: the same address as {} {} ({} names the other node)", peer_ip, peer, host_ip,
                                self, peer_ip));
  }
}

int p2p_rank_by_address(const std::string& self, const std::string& peer) {
  const RawAddress a = raw_address(self), b = raw_address(peer);
  if (a.family == 0 || a.family != b.family || a.bytes == b.bytes) {
    throw std::invalid_argument(fmt::format("p2p_rank_by_address({}, {}): two different addresses of one family",
                                            self, peer));
  }
  return a.bytes < b.bytes ? 0 : 1;
}

}  // namespace xb
