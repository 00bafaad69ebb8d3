#pragma once
// A kv case's configuration, typed: the kv job writes `config` from it and the dev-sandbox aio dialect
// reads it back (`case.config.get<KvConfig>()`): the keys are spelled once, here, in the job's words.
#include <cstdint>
#include <optional>
#include <string>

#include "core/json_record.hpp"

namespace xb {

// A load into device memory: where it went.
struct KvDeviceConfig {
  std::string backend;
  int device = 0;
  std::string engine;         // the backend's copy engine
  std::string device_memory;  // in words: one slot per thread
};

struct KvConfig {
  std::string op;  // "dump" or "load"
  std::string store, layout;
  std::uint64_t blocks = 0, block_bytes = 0;
  unsigned threads = 1;
  std::uint64_t passes = 1;
  std::string io;  // how a block is read or written, in words
  bool direct = true;
  std::uint64_t direct_alignment = 0, seed = 0;
  std::string latency_span;  // what one block's latency spans
  // A dump: how it synced and how a block becomes visible.
  std::optional<std::string> sync{}, publish{};
  // A load: where to ("host", "device"), whether checked, and the device when there.
  std::optional<std::string> to{};
  std::optional<bool> verify{};
  Beside<KvDeviceConfig> device{};

  bool dump() const { return op == "dump"; }
};

XB_JSON_RECORD(KvDeviceConfig, backend, device, engine, device_memory)
XB_JSON_RECORD(KvConfig, op, store, layout, blocks, block_bytes, threads, passes, io, direct, direct_alignment, seed,
               latency_span, sync, publish, to, verify, device)

}  // namespace xb
