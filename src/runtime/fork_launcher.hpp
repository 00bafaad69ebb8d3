#pragma once
// Ranks as forked processes on this machine, one per device: the fan-out of dev-sandbox. The
// processes share an anonymous mapping (nothing in /dev/shm) holding a process-shared barrier,
// each rank's end state and an exchange slot per rank for the Runtime's collectives; what a rank
// returns, of any size, comes back through an anonymous memory file of its own. The parent
// does not take part: it waits, and if any child dies it stops the others (they would wait at the
// barrier for ever) and reports which one died and how. Stopping is asked, not forced: a rank
// leaves the barrier and unwinds, releasing its device's resources, and is killed only if it has
// not ended within a grace period. SIGINT, SIGTERM and SIGHUP stop a rank the same way.
#include <cstddef>

#include "runtime/runtime.hpp"

namespace xb {

// The most a rank may pass to one collective (allgather, gather, broadcast) of a forked run.
inline constexpr std::size_t kForkExchangeBytes = 64 * 1024;

class ForkLauncher final : public Launcher {
 public:
  explicit ForkLauncher(int ranks);
  int ranks() const override { return ranks_; }
  std::vector<std::string> run(const Body& body) override;

 private:
  int ranks_;
};

}  // namespace xb
