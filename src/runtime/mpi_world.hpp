#pragma once
// The MPI job this process is a rank of, as the rest of the program sees it: no mpi.h here. MPI
// itself lives in a module loaded at run time (runtime/mpi/, libxferbench-runtime-mpi.so), so
// `xferbench copy` starts on a node without Debian's libmpi.so.40 (clusters run HPC-X or a vendor
// MPI), and `p2p --mpi` says why it cannot run there (runtime/mpi_library.hpp).
//
// A rank that fails cannot leave the others waiting in a collective for ever: the command reports
// its error on stderr, naming the rank, and calls abort(), which ends every rank (MPI_Abort) and
// makes mpirun exit non-zero.
#include <memory>
#include <string>

#include "runtime/collectives.hpp"
#include "runtime/runtime.hpp"

namespace xb {

// The thread level a process asks MPI for: funneled where other threads exist (a job's server
// threads, which never call MPI), single where the main thread is the only one (the collective
// tester: Open MPI 4.1 takes its thread locks above single, which costs 0.15 us of a 0.55 us
// barrier here; docs/link.md).
enum class MpiThreads { funneled, single };

// How MPI_COMM_WORLD is cut into the groups that run collectives at once (SHARP's MPI tester's
// group types); every rank belongs to exactly one group.
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

// MPI started in this process (MPI_Init_thread; MPI_Finalize when destroyed: MPI cannot start
// twice in a process, so a command makes exactly one) and the Runtime of MPI_COMM_WORLD: barrier
// and max wait without spinning long (MPI_Ibarrier, MPI_Iallreduce tested with sleeps), so a
// waiting rank leaves the CPU to the threads that move data.
class MpiWorld : public Runtime {
 public:
  // The processor name (MPI_Get_processor_name): the node a rank runs on.
  virtual std::string node() const = 0;
  // Ends every rank of the job with `code` (MPI_Abort on MPI_COMM_WORLD); never returns.
  [[noreturn]] virtual void abort(int code) noexcept = 0;
  // This rank's group of `layout` over host buffers allocated as `allocation` (collective over
  // MPI_COMM_WORLD: every rank calls it). Destroyed before this world.
  virtual std::unique_ptr<CollectiveGroup> collective_group(const GroupLayout& layout, HostAllocation allocation) = 0;
};

}  // namespace xb
