#pragma once
// A clock of one iteration other than the host's: the device's own events around the work of an
// iteration (backends/stream_clock.hpp). The timed loop (runtime/timed_loop.hpp) calls begin()
// before the first enqueue, end() after the last, and elapsed_us() once the work is complete.
#include <string>

namespace xb {

class IterationTimer {
 public:
  virtual ~IterationTimer() = default;
  virtual void begin() = 0;
  virtual void end() = 0;
  virtual double elapsed_us() = 0;
  // How it times, for results: "device events, gated" or "device events, ungated".
  virtual std::string method() const = 0;
};

}  // namespace xb
