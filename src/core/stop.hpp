#pragma once
// A run asked to stop (Ctrl-C, SIGTERM, SIGHUP: cli/partial_results) stops at the next point a
// job checks, and unwinds: what it holds is released by its destructors (an NPU's streams and
// buffers, and the runtime's aclFinalize: the device runtime's contract) before the process ends.
// The token is std::stop_token (JobContext::stop); a default one never stops.
#include <stdexcept>
#include <stop_token>

namespace xb {

// Thrown where a job sees its stop token set: the run is ending on a signal, and the interrupt
// delivers what was measured (the job's own failure path leaves it to the interrupt).
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("stopped: the run is ending on a signal") {}
};

inline void stop_here_if_asked(const std::stop_token& stop) {
  if (stop.stop_requested()) throw Interrupted();
}

}  // namespace xb
