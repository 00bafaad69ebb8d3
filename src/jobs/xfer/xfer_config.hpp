#pragma once
// The configuration of xfer's cases, typed: the job writes its results' `config` from these and the
// HIXL dialects read them back, so the keys are spelled once, here.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/json_record.hpp"

#include "transport/transport_info_json.hpp"

namespace xb {

// One block size of a client run.
struct XferClientConfig {
  std::string peer;  // the server's control address
  std::string op, mode, local_place, remote_place;
  std::uint64_t block = 0, total = 0, transfers = 0, iters = 0, warmup = 0, seed = 0;
  bool latency_pass = false, verify = false, verified = false, pool = false;
  std::int64_t wait_ms = 0;
  TransportInfo transport;  // the transport that carried the data, as it describes itself
  std::string server, remote_memory, local_memory, backend, device_name;
  int device = 0;
  nlohmann::json mover;  // how the data moved: its own record (the mover's)
  std::string timing;    // how the passes were timed, in words
  std::optional<std::string> device_path;  // with client device memory: registered, or why staged
  // With several servers at once (--peer A,B): which one, of how many.
  std::optional<std::size_t> server_index, servers;
};

// A server's one client served.
struct XferServerConfig {
  std::string listen, data, client;
  unsigned clients = 1;
  std::int64_t wait_ms = 0;
  TransportInfo transport;
  std::string backend, device_name;
  int device = 0;
};

// Whether an xfer case's config is a client's (the role is spelled here only, as to_json writes it).
bool is_xfer_client_config(const nlohmann::json& config);

XB_JSON_FIELDS(XferClientConfig, peer, op, mode, local_place, remote_place, block, total, transfers, iters, warmup,
               latency_pass, verify, verified, seed, wait_ms, transport, server, remote_memory, local_memory, backend,
               device, device_name, pool, mover, timing, device_path, server_index, servers)
XB_JSON_FIELDS(XferServerConfig, listen, data, client, clients, wait_ms, transport, backend, device, device_name)

// Each its fields and "role" ("client", "server"), which from_json checks.
void to_json(nlohmann::json& j, const XferClientConfig& c);
void from_json(const nlohmann::json& j, XferClientConfig& c);
void to_json(nlohmann::json& j, const XferServerConfig& c);
void from_json(const nlohmann::json& j, XferServerConfig& c);

}  // namespace xb
