#pragma once
// The timed loop of one p2p case on two opened devices, written against backends/device.hpp alone.
// Unidirectional: a's source into b's destination on a's stream (the source pushes); bidirectional:
// also b's source into a's destination on b's stream, the two in lockstep (an execution ends when both
// are done). Executions are queued back to back in windows of kP2pWindow, an event after each:
// execution k is event k-1 to event k (device time, no host round trip). Without device events
// (capability event_timing off) the host clock times each window, its executions sharing it evenly.
#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>

#include "backends/device.hpp"
#include "core/progress_line.hpp"
#include "jobs/p2p/p2p_metrics.hpp"

namespace xb {

inline constexpr std::uint64_t kP2pWindow = 128;

// One device of a p2p run with its two buffers (of the plan's size) and its stream.
struct P2pDevice {
  int index = 0;
  std::unique_ptr<Device> device;
  std::unique_ptr<Allocation> src;
  std::unique_ptr<Allocation> dst;
  std::unique_ptr<Stream> stream;  // the engine under test
  std::unique_ptr<Stream> setup;   // setup_engine's: fills and checks, so a broken engine cannot hide
  bool event_timing = false;       // the backend's capability: its events measure elapsed time

  // Device `index` with both buffers, a stream of `engine` and one of the backend's setup engine.
  static P2pDevice open(Backend& backend, int index, std::uint64_t size, const std::string& engine);
};

// Enables a's access to b's memory (and b's to a's when bidirectional). Support::no with the
// backend's reason when the devices cannot reach each other: the case is then waived.
Support connect_p2p(P2pDevice& a, P2pDevice& b, bool bidirectional);

// Runs `warmup` untimed, then `executions` timed executions; the elapsed time of each. `progress`
// (may be null) hears the bytes of each window as it ends: the live rate.
ElapsedRecord run_p2p_executions(P2pDevice& a, P2pDevice& b, std::uint64_t size, bool bidirectional,
                                 std::uint64_t warmup, std::uint64_t executions, ProgressLine* progress = nullptr,
                                 const std::stop_token& interrupt = {});

// Verification on the setup stream (device memory may not be host-readable): fill a source with the
// pattern of `seed`; check a destination holds it, else std::runtime_error naming devices and offset.
void fill_p2p_source(P2pDevice& d, std::uint64_t size, std::uint64_t seed);
void check_p2p_destination(P2pDevice& d, const P2pDevice& from, std::uint64_t size, std::uint64_t seed,
                           const std::string& backend);

}  // namespace xb
