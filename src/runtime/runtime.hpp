#pragma once
// How ranks meet and line up. A job body sees a Runtime (its rank, the rank count, a barrier that
// releases every rank together); a Launcher runs one body per rank and gathers what each returns
// to the root. The local fork launcher is here; MPI and TCP rendezvous implement the same two
// interfaces (as UCX perftest's ucx_perf_rte_t does for its runtimes).
#include <functional>
#include <string>
#include <vector>

namespace xb {

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Returns once every rank has called it.
  virtual void barrier() = 0;
};

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
