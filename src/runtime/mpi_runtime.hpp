#pragma once
// Ranks launched and lined up by MPI (mpirun, or srun where MPI has PMI): the Runtime of a job whose
// ranks run on several nodes. MpiSession is the one MPI_Init_thread/MPI_Finalize of the process
// (RAII; MPI cannot be initialized twice in a process, so there is exactly one, made by the
// command). MpiRuntime adds what jobs need besides a barrier: every rank's string to every rank
// (endpoint addresses) and to the root (results).
//
// A rank that fails cannot leave the others waiting in a collective for ever: the command reports
// its error on stderr, naming the rank, and calls MpiSession::abort, which ends every rank
// (MPI_Abort) and makes mpirun exit non-zero.
#include <string>
#include <vector>

#include "runtime/runtime.hpp"

namespace xb {

// An MPI call's return code checked: std::runtime_error naming the call and MPI's own words for
// the code (MPI_Error_string) unless it is MPI_SUCCESS.
void check_mpi(int rc, const char* call);

// The thread level a process asks MPI for: funneled where other threads exist (a job's server
// threads, which never call MPI), single where the main thread is the only one (the collective
// tester: Open MPI 4.1 takes its thread locks above single, which costs 0.15 us of a 0.55 us
// barrier here; docs/link.md).
enum class MpiThreads { funneled, single };

class MpiSession {
 public:
  // MPI_Init_thread (funneled: only the main thread calls MPI). Throws std::runtime_error when MPI
  // cannot start.
  explicit MpiSession(MpiThreads threads = MpiThreads::funneled);
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // Ends every rank of the job with `code` (MPI_Abort on MPI_COMM_WORLD); never returns.
  [[noreturn]] static void abort(int code) noexcept;
  // Whether this process was started by an MPI launcher (mpirun, srun with PMI): its environment
  // names a rank. Without one MPI_Init makes a singleton of one rank.
  static bool launched() noexcept;
};

class MpiRuntime final : public Runtime {
 public:
  explicit MpiRuntime(const MpiSession& session);
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  // Collectives that wait without spinning for long (MPI_Ibarrier, MPI_Iallreduce + MPI_Test with
  // sleeps): a waiting rank leaves the CPU to the threads that move data.
  void barrier() override;  // MPI_Ibarrier
  // Every rank's `mine`, in rank order, at every rank (MPI_Allgather of lengths, MPI_Allgatherv).
  std::vector<std::string> allgather(const std::string& mine) override;
  // Every rank's `mine` in rank order at `root`; empty elsewhere (MPI_Gather, MPI_Gatherv).
  std::vector<std::string> gather(const std::string& mine, int root) override;
  // The root's `text` at every rank (MPI_Bcast of the length, then the bytes).
  std::string broadcast(const std::string& text, int root) override;
  // The largest of every rank's `mine`, at every rank (MPI_Iallreduce, MPI_MAX).
  double max(double mine) override;
  // The processor name (MPI_Get_processor_name): the node a rank runs on.
  std::string node() const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace xb
