#pragma once
// A copy case's configuration, typed: the copy job writes `config` from it and the dev-sandbox and
// ascend-dmi dialects read it back (`case.config.get<CopyConfig>()`): the keys are spelled once, here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/device_info_json.hpp"
#include "core/json_record.hpp"

namespace xb {

// Which clock each series of the case is.
struct CopyTiming {
  std::string submit, copy;
  std::optional<std::string> device;  // where the backend's streams carry events
};

struct CopyConfig {
  std::string backend, direction, host_memory, topology, engine;
  // How the engine was chosen where the plan named none and there was a choice (copy_engine_choice).
  std::optional<std::string> engine_choice;
  bool batch = false;
  int streams = 0;
  std::uint64_t block_bytes = 0, blocks = 0, iterations = 0, warmup = 0, seed = 0;
  int devices = 0, first_device = 0;
  std::uint64_t fragments = 0;
  bool verify = false;
  std::string launcher = "fork";
  // How batches really went out, distinct ways in rank order; absent where a backend has one way.
  std::optional<std::vector<std::string>> submission;
  CopyTiming timing;
  // The devices as each rank found them, and whether their memory is host RAM: the judge's facts.
  std::optional<std::vector<DeviceInfo>> device_info;
  std::optional<bool> device_memory_in_host_ram;
};

XB_JSON_RECORD(CopyTiming, submit, copy, device)
XB_JSON_RECORD(CopyConfig, backend, direction, host_memory, topology, engine, engine_choice, batch, streams, block_bytes, blocks,
               iterations, warmup, devices, first_device, fragments, verify, seed, launcher, timing, submission,
               device_info, device_memory_in_host_ram)

}  // namespace xb
