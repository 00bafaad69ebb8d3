#pragma once
// The device's timing of an iteration that runs on several streams of one device: a start event
// on every stream before its first copy and an end event after its last, so the iteration lasts
// from the earliest start to the latest end as the device saw them (no host round trip in the
// figure). Where the device has a gate (Device::create_gate), every stream is held at it from
// begin() to end(): the whole iteration is queued before any of it moves, and enqueuing never
// shows in the time, as nvbandwidth's spin kernel arranges.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/device.hpp"
#include "core/iteration_timer.hpp"

namespace xb {

class StreamClock final : public IterationTimer {
 public:
  // `streams` outlive the clock, and are driven only between begin() and end() while it times.
  StreamClock(Device& device, std::span<Stream* const> streams, bool use_gate = true);
  void begin() override;
  void end() override;
  double elapsed_us() override;  // waits for the end events
  std::string method() const override;
  bool gated() const { return gate_ != nullptr; }

 private:
  Device& device_;
  std::vector<Stream*> streams_;
  std::vector<std::unique_ptr<Event>> starts_, ends_;
  std::unique_ptr<Gate> gate_;  // last member: destroyed first, so no stream stays held
};

}  // namespace xb
