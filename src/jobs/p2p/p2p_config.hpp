#pragma once
// The configuration of one p2p case, typed: the job writes its results' `config` from it and the
// ascend-dmi dialect reads it back, so the keys are spelled once, here. One record for every kind
// of case: a pair within a node, the matrix, a pair across nodes (scope "nodes") and a fleet link.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/device_info_json.hpp"
#include "core/json_record.hpp"

namespace xb {

struct P2pConfig {
  std::string backend;
  std::string direction;  // "unidirectional", "bidirectional"
  std::uint64_t size_bytes = 0, executions = 0, warmup = 0, seed = 0;
  std::string engine;
  bool verify = false;
  std::string timing;          // the clock of the elapsed series
  std::string scope = "node";  // "node", "nodes" or "fleet"
  // A pair: the devices' names ("cpu::device::0", or "rank 1 (device 0 on node-b)" across nodes).
  std::optional<std::string> from, to;
  // The matrix: how many devices, and the bandwidth matrix (core/matrix.hpp's JSON).
  std::optional<int> devices;
  std::optional<nlohmann::json> matrix;
  // Across nodes: what started the ranks ("mpi", "peer-ip", "shared-dir"), the transport, each end.
  std::optional<std::string> launcher, transport;
  std::optional<int> from_rank, to_rank, from_device, to_device;
  std::optional<std::string> from_node, to_node;
  // A fleet link (scope "fleet"): the device every rank uses.
  std::optional<int> device;
  // Within a node: the devices as they describe themselves (the judge's facts: PCI addresses, links).
  std::optional<std::vector<DeviceInfo>> device_info;
};

XB_JSON_RECORD(P2pConfig, backend, direction, size_bytes, executions, warmup, engine, verify, seed, timing, scope, from,
               to, devices, matrix, launcher, transport, from_rank, to_rank, from_device, to_device, from_node, to_node,
               device, device_info)

// The two ranks of an across-nodes or fleet case without reading the whole record (the fleet sorts
// and matches its links by them many times over); nlohmann's out_of_range names a missing key.
inline std::pair<int, int> p2p_ranks_of(const nlohmann::json& config) {
  return {config.at("from_rank").get<int>(), config.at("to_rank").get<int>()};
}

}  // namespace xb
