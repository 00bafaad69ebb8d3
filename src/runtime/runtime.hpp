#pragma once
// How ranks meet and line up: the one abstraction every multi-rank job sees (as UCX perftest's
// ucx_perf_rte_t is for its runtimes). A job body sees a Runtime: its rank, the rank count, a
// barrier that releases every rank together, and the few collectives jobs need (every rank's
// string to every rank or to the root, the root's string to every rank, the largest of a number).
// Implementations: forked processes (fork_launcher), MPI
// (mpi_runtime), a TCP pair (tcp_pair_runtime: the peer-IP rendezvous) and the shared directory
// (shared_dir_runtime). A Launcher runs one body per rank and gathers what each returns to the
// root, for the runtimes that start their own ranks (fork; and threads, tests/support/thread_launcher).
//
// Every collective is called by every rank, in the same order; a rank that cannot take part
// throws, and the caller ends the others (they would wait in the collective).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // How the ranks were started and meet, as a case records its launcher: "mpi", "fork",
  // "peer-ip", "shared-dir", "threads".
  virtual std::string_view name() const = 0;
  // Returns once every rank has called it.
  virtual void barrier() = 0;
  // Every rank's `mine`, in rank order, at every rank.
  virtual std::vector<std::string> allgather(const std::string& mine) = 0;
  // Every rank's `mine`, in rank order, at `root`; empty elsewhere. By default an allgather.
  virtual std::vector<std::string> gather(const std::string& mine, int root);
  // The root's `text` at every rank (what the others pass is ignored). By default an allgather.
  virtual std::string broadcast(const std::string& text, int root);
  // The largest of every rank's `mine`, at every rank. By default an allgather.
  virtual double max(double mine);
};

// Every rank's `terms` (what its own command line made of the plan, fields marked with flag()) must
// be rank 0's: on a difference every rank throws PlanMismatch naming rank 0's terms and the first
// differing rank's, then `hint` in parentheses when given. Every rank calls it (an allgather).
void require_ranks_agree(Runtime& group, const std::string& terms, const std::string& hint = {});

class Launcher {
 public:
  // A rank's work; what it returns (a serialized rank result) is gathered to the root. A body
  // that throws fails the whole run with the rank's message.
  using Body = std::function<std::string(Runtime&)>;

  virtual ~Launcher() = default;
  virtual int ranks() const = 0;
  // Runs `body` on every rank. At the root: every rank's result in rank order. Elsewhere: empty.
  // Throws std::runtime_error naming the rank when any rank failed.
  virtual std::vector<std::string> run(const Body& body) = 0;
};

}  // namespace xb
