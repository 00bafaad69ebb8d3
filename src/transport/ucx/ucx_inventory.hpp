#pragma once
// The transports UCX finds on this machine, as `ucx_info -d` lists them: per memory domain each
// transport and device (tcp/eth0, posix/memory, cma/memory, self/memory, rc_verbs/mlx5_0:1, …),
// read through UCT's component and resource queries. Only built with UCX (XB_HAVE_UCX).
#include <string>
#include <vector>

namespace xb {

struct UcxResource {
  std::string component;  // "tcp", "posix", "self", "ib"
  std::string memory_domain;  // "tcp", "posix", "self", "mlx5_0"
  std::string transport;  // "tcp", "posix", "self", "rc_verbs"
  std::string device;     // "eth0", "memory", "mlx5_0:1"
  std::string device_type;  // "network", "shared memory", "accelerator", "loopback"
};

struct UcxInventory {
  std::string version;  // "1.13.1"
  std::vector<UcxResource> resources;
  // Memory domains that could not be opened or queried, with why (not fatal: the others are listed).
  std::vector<std::string> problems;
};

// Throws std::runtime_error when UCT cannot list its components at all.
UcxInventory ucx_inventory();

}  // namespace xb
