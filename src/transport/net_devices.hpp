#pragma once
// The machine's network devices as the kernel lists them: interfaces (/sys/class/net) and RDMA
// devices (/sys/class/infiniband), for the dialects that pick a UCX device or path by name
// (sharp_coll_test's -d, HIXL's HCCL_INTRA_ROCE_ENABLE).
#include <optional>
#include <string>
#include <string_view>

namespace xb {

// Whether `name` (a plain name: no '/', not "." or "..") is a network interface, an RDMA device,
// either.
bool is_network_interface(std::string_view name);
bool is_rdma_device(std::string_view name);
bool net_device_exists_here(std::string_view name);
// Whether this machine has any RDMA device.
bool rdma_devices_here();
// The first IPv4 address of the network interface `name` (getifaddrs), none where it has none:
// where a rank serves the far end of a link on the interface sharp_coll_test's -d names.
std::optional<std::string> interface_ipv4(std::string_view name);
// The first non-loopback IPv4 address of an interface that is up, else 127.0.0.1: where a rank
// listens when no --hip names it (one per network namespace in the tests).
std::string default_host_address();

}  // namespace xb
