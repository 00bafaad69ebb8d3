#pragma once
// The collectives of an MPI communicator (MPI_Allreduce, MPI_Iallreduce, MPI_Reduce, MPI_Barrier,
// MPI_Bcast, MPI_Reduce_scatter_block, MPI_Allgather) over host buffers: the CollectiveGroup the
// coll job times under mpirun. The communicator is MPI_COMM_WORLD or a part of it, split as
// GroupLayout says (SHARP's MPI tester's group types); every rank belongs to exactly one group.
#include <memory>

#include "memory/host_buffer.hpp"
#include "runtime/collectives.hpp"
#include "runtime/mpi_world.hpp"

namespace xb {

class MpiCollectiveGroup final : public CollectiveGroup {
 public:
  // Makes this rank's group's communicator (collective over MPI_COMM_WORLD: every rank calls it;
  // MPI has started: MpiRuntime::collective_group makes it).
  MpiCollectiveGroup(const GroupLayout& layout, HostAllocation allocation);
  ~MpiCollectiveGroup() override;  // MPI_Comm_free of a communicator made here
  MpiCollectiveGroup(const MpiCollectiveGroup&) = delete;
  MpiCollectiveGroup& operator=(const MpiCollectiveGroup&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string_view name() const override { return "mpi"; }
  void prepare(const CollectiveShape& shape) override;
  void run_once() override;
  // The line-up before an iteration (iallreduce's: a non-blocking barrier and its wait, as the
  // operation it precedes).
  void barrier() override;
  std::vector<std::string> allgather(const std::string& mine) override;
  std::string check() override;
  double sum(double mine) override;
  double min(double mine) override;
  double max(double mine) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace xb
