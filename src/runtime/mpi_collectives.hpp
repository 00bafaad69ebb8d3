#pragma once
// The collectives of an MPI communicator (MPI_Allreduce, MPI_Iallreduce, MPI_Reduce, MPI_Barrier,
// MPI_Bcast, MPI_Reduce_scatter_block, MPI_Allgather) over host buffers: the CollectiveGroup the
// coll job times under mpirun. The communicator is MPI_COMM_WORLD or a part of it, split as
// GroupLayout says (SHARP's MPI tester's group types); every rank belongs to exactly one group.
#include <memory>

#include "memory/host_buffer.hpp"
#include "runtime/collectives.hpp"
#include "runtime/mpi_runtime.hpp"

namespace xb {

// How MPI_COMM_WORLD is cut into the groups that run the collectives at once.
struct GroupLayout {
  enum class Kind {
    world,      // MPI_COMM_WORLD itself
    world_dup,  // a duplicate of it (MPI_Comm_dup)
    world_rev,  // every rank, in reverse order
    split,      // `parts` groups: rank % parts, in rank order
    split_rev,  // the same groups, in reverse order
    half,       // the first half of the ranks and the second
    ppn_comm,   // one group per node-local rank (the ranks of every node with the same local rank)
    ppn_jobs,   // as ppn_comm (with SHARP, one SHARP job per group; here the same MPI groups)
  };
  Kind kind = Kind::world;
  int parts = 2;
};

class MpiCollectiveGroup final : public CollectiveGroup {
 public:
  // Makes this rank's group's communicator (collective over MPI_COMM_WORLD: every rank calls it).
  MpiCollectiveGroup(const MpiSession& session, const GroupLayout& layout, HostAllocation allocation);
  ~MpiCollectiveGroup() override;  // MPI_Comm_free of a communicator made here
  MpiCollectiveGroup(const MpiCollectiveGroup&) = delete;
  MpiCollectiveGroup& operator=(const MpiCollectiveGroup&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void prepare(const CollectiveShape& shape) override;
  void run_once() override;
  void line_up() override;
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
