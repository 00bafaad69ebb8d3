#pragma once
// Which UCX transports an endpoint really uses, and the data path (protocol) chosen from them.
// UCX 1.13's ucp_ep_query has no transport field, so the lanes are read from ucp_ep_print_info
// (lines "lane[1]:  1:tcp/lo.0 md[0] -> md[0]/tcp/sysdev[255] rma_bw#0 am am_bw#0 wireup"; the lanes of
// one-sided operations on their own lines "put[1]: 0..<short>..4294967296..<bcopy>..(inf)").
#include <ucp/api/ucp.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xb::ucx {

struct Lane {
  int index = 0;                   // UCX's lane number
  std::string transport;           // "tcp", "posix", "cma", "rc_mlx5"
  std::string device;              // "lo", "memory", "mlx5_0:1"
  std::vector<std::string> roles;  // "am", "am_bw", "rma" (from put[N]/get[N]), "rma_bw", "wireup"…
};

// Put/get as UCP one-sided operations, or as active messages (ucx_am.hpp).
enum class Protocol { rma, am };
const char* to_string(Protocol protocol);

std::vector<Lane> parse_lanes(std::string_view print_info);
// ucp_ep_print_info into an open_memstream, parsed. Throws SystemError if the stream cannot open.
std::vector<Lane> endpoint_lanes(ucp_ep_h ep);

// One-sided operations are native when a lane carrying them (rma or rma_bw) is not tcp (shared
// memory, cma, RDMA, cuda_ipc, self); over tcp alone UCX emulates them with active messages.
bool rma_is_native(const std::vector<Lane>& lanes);
// The override if given, else rma where native and am where UCX would emulate.
Protocol choose_protocol(const std::vector<Lane>& lanes, std::optional<Protocol> forced);

// "posix/memory, cma/memory, tcp/lo": each transport/device once, in lane order.
std::string describe_lanes(const std::vector<Lane>& lanes);

// XFERBENCH_UCX_PROTOCOL=rma|am (unset or empty: automatic). Throws UsageError naming the variable.
std::optional<Protocol> protocol_from_environment();

}  // namespace xb::ucx
