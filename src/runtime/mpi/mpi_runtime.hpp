#pragma once
// MPI_COMM_WORLD as an MpiWorld (runtime/mpi_world.hpp): the one MPI_Init_thread/MPI_Finalize of the
// process and the Runtime of a job whose ranks run on several nodes. Built into the MPI runtime
// module only (this folder is the module: the one place mpi.h is seen).
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/mpi_world.hpp"

namespace xb {

// An MPI call's return code checked: std::runtime_error naming the call and MPI's own words for
// the code (MPI_Error_string) unless it is MPI_SUCCESS.
void check_mpi(int rc, const char* call);

// Every rank's `mine`, in rank order, at every rank of `comm` (MPI_Allgather of lengths,
// MPI_Allgatherv): the world's allgather and a collective group's.
std::vector<std::string> allgather_strings(MPI_Comm comm, const std::string& mine);

class MpiRuntime final : public MpiWorld {
 public:
  // MPI_Init_thread at `threads`; errors come back as codes (MPI_ERRORS_RETURN). Throws
  // std::runtime_error when MPI cannot start.
  explicit MpiRuntime(MpiThreads threads);
  ~MpiRuntime() override;  // MPI_Finalize
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string_view name() const override { return "mpi"; }
  void barrier() override;  // MPI_Ibarrier
  std::vector<std::string> allgather(const std::string& mine) override;
  // Every rank's `mine` in rank order at `root`; empty elsewhere (MPI_Gather, MPI_Gatherv).
  std::vector<std::string> gather(const std::string& mine, int root) override;
  // The root's `text` at every rank (MPI_Bcast of the length, then the bytes).
  std::string broadcast(const std::string& text, int root) override;
  // The largest of every rank's `mine`, at every rank (MPI_Iallreduce, MPI_MAX).
  double max(double mine) override;
  std::string node() const override;
  [[noreturn]] void abort(int code) noexcept override;
  std::unique_ptr<CollectiveGroup> collective_group(const GroupLayout& layout, HostAllocation allocation) override;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace xb
