#pragma once
// Ranks as threads of this process: what tests a job's multi-rank logic without forking. The threads meet at one
// std::barrier; a collective passes strings through one slot per rank between two barriers.
//
// A rank that throws cannot leave the others waiting at the barrier for ever: the barrier is
// abandoned (every later barrier() of the other ranks throws), all threads are joined and run()
// throws the first rank's message, naming the rank.
#include <cstddef>

#include "runtime/runtime.hpp"

namespace xb {

class ThreadLauncher final : public Launcher {
 public:
  explicit ThreadLauncher(int ranks);
  int ranks() const override { return ranks_; }
  std::vector<std::string> run(const Body& body) override;

 private:
  int ranks_;
};

}  // namespace xb
