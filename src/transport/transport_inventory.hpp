#pragma once
// The transports this build has (transport_registry) and, with UCX, what UCX finds on this machine.
#include <string>
#include <vector>

#include "transport/transport.hpp"

namespace xb {

struct TransportInventoryRow {
  std::string transport;  // "ucx/tcp", "ucx/posix", "tcp"
  std::string device;     // "eth0", "memory", "" for the plain TCP transport (any interface)
  std::string kind;       // "network", "shared memory", "loopback", "accelerator"
};

struct TransportInventory {
  std::vector<std::string> built;  // transport_names(): "ucx", "tcp"
  std::string ucx_version;         // empty: this build has no UCX
  std::vector<TransportInventoryRow> rows;
  std::vector<std::string> problems;  // what could not be listed, and why
};

// Never throws for a machine's lack: a UCX that cannot list its components is a problem line.
TransportInventory inspect_transports();

}  // namespace xb
