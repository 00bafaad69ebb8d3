#include "backends/stream_clock.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace xb {

StreamClock::StreamClock(Device& device, std::span<Stream* const> streams, bool use_gate)
    : device_(device), streams_(streams.begin(), streams.end()) {
  if (streams_.empty()) throw std::invalid_argument("StreamClock: no stream to time");
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    starts_.push_back(device.create_event());
    ends_.push_back(device.create_event());
  }
  if (use_gate) gate_ = device.create_gate();
}

void StreamClock::begin() {
  if (gate_) gate_->close();
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    if (gate_) gate_->hold(*streams_[i]);
    streams_[i]->record(*starts_[i]);
  }
}

void StreamClock::end() {
  for (std::size_t i = 0; i < streams_.size(); ++i) streams_[i]->record(*ends_[i]);
  if (gate_) gate_->open();
}

double StreamClock::elapsed_us() {
  // Every mark against the first stream's start: the earliest start and the latest end, each as
  // an offset from one event (elapsed_us takes two events of this device).
  double earliest = 0.0;
  double latest = std::numeric_limits<double>::lowest();
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    ends_[i]->synchronize();
    if (i > 0) earliest = std::min(earliest, device_.elapsed_us(*starts_[0], *starts_[i]));
    latest = std::max(latest, device_.elapsed_us(*starts_[0], *ends_[i]));
  }
  if (gate_) gate_->confirm_held();
  return latest - earliest;
}

std::string StreamClock::method() const { return gate_ ? "device events, gated" : "device events, ungated"; }

}  // namespace xb
