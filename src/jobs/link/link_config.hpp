#pragma once
// The configuration of one link case (one size of the sweep), typed: the link job writes its
// result's `config` from it, and the sharp_coll_test dialect and the survey read it back
// (`case.config.get<LinkConfig>()`), so the keys are spelled once, here.
#include <cstdint>
#include <optional>
#include <string>

#include "core/json_record.hpp"

#include "transport/transport_info_json.hpp"

namespace xb {

struct LinkSweepConfig {
  std::uint64_t min = 0, max = 0, step = 0;  // bytes, bytes, the factor between sizes
};

// One end's memory: its -M name ("host", "cuda", "null") and what it is.
struct LinkEndConfig {
  std::string memory, description;
};

struct LinkConfig {
  std::uint64_t size = 0;  // this case's bytes per transfer
  LinkSweepConfig sweep;
  std::uint64_t iterations = 0, warmup = 0;
  std::string memory;  // "src:dst"
  LinkEndConfig src, dst;
  std::string cuda;  // what -M cuda meant here
  std::string backend;
  int device = 0;
  std::string peer, server;  // the far end's address, and how it described itself
  TransportInfo transport;
  std::string transfer, timing;  // what was moved and timed, in words
  bool check = false;
  std::optional<std::string> device_path;   // device memory: registered, or why staged
  std::optional<std::string> check_method;  // with check: how the data was checked
  std::optional<bool> pingpong;             // set: each put answered by the peer's (half the round trip)
};

XB_JSON_RECORD(LinkSweepConfig, min, max, step)
XB_JSON_RECORD(LinkEndConfig, memory, description)
XB_JSON_RECORD(LinkConfig, size, sweep, iterations, warmup, memory, src, dst, cuda, backend, device, peer, server,
               transport, transfer, timing, check, device_path, check_method, pingpong)

}  // namespace xb
