#pragma once
// The P2pGroup of ranks launched by MPI: MpiRuntime's collectives, as the cross-node p2p job asks.
#include "jobs/p2p/p2p_remote.hpp"
#include "runtime/mpi_runtime.hpp"

namespace xb {

class MpiP2pGroup final : public P2pGroup {
 public:
  explicit MpiP2pGroup(MpiRuntime& runtime) : rt_(runtime) {}
  int rank() const override { return rt_.rank(); }
  int size() const override { return rt_.size(); }
  void barrier() override { rt_.barrier(); }
  std::vector<std::string> allgather(const std::string& mine) override { return rt_.allgather(mine); }
  std::vector<std::string> gather(const std::string& mine, int root) override { return rt_.gather(mine, root); }
  double max(double mine) override { return rt_.max(mine); }

 private:
  MpiRuntime& rt_;
};

}  // namespace xb
