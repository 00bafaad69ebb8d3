#pragma once
// Which network devices carried a transfer to a peer, for its ceiling: the transport's
// lanes name them where they name devices (UCX: "rc_mlx5/mlx5_0:1, tcp/eth0"); otherwise (the
// plain tcp transport: lanes "tcp") the kernel's route to the peer's address does — a UDP socket
// connected to it (no packet is sent) has the source address the kernel chose, and getifaddrs
// names the interface holding it. Shared-memory lanes and loopback carry no network device: the
// peer is on this host, and the reason says so.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "judge/ceiling.hpp"

namespace xb {

struct RouteDevices {
  std::vector<std::string> interfaces;  // "eth0"
  std::vector<std::string> rdma_ports;  // "mlx5_0:1"
  std::string why;                      // when both are empty: why there is no network device
};

// `lanes`: TransportInfo::lanes ("posix/memory, cma/memory, tcp/lo", "tcp"); `peer_ip`: the peer's
// numeric address ("10.0.0.2", "::1").
RouteDevices route_devices(std::string_view lanes, const std::string& peer_ip);

// The interface the kernel routes `peer_ip` through, or "" with `why` set.
std::string interface_toward(const std::string& peer_ip, std::string& why);

// The interface holding the address `ip` (getifaddrs), or "" with `why` set.
std::string interface_holding(const std::string& ip, std::string& why);

// The devices' ceiling (the sum over several rails: UCX stripes large messages over them), each
// with its PCIe path; unknown with the reason where there is no network device.
Ceiling route_ceiling(const std::filesystem::path& sysfs, const RouteDevices& devices);

}  // namespace xb
