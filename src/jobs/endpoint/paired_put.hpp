#pragma once
// A put between paired ranks, the measurement of p2p across nodes and of every fleet link: each
// rank of a pair serves its device memory on a thread and exposes a region of its partner's; then
// every rank starts each execution together (run_timed_loop), the senders putting and flushing.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "backends/device.hpp"
#include "jobs/endpoint/peer_server.hpp"
#include "jobs/endpoint/put_source.hpp"
#include "runtime/runtime.hpp"
#include "transport/session.hpp"

namespace xb {

struct PairedPutPlan {
  std::string host;       // this rank's address: its server listens here
  std::string transport;  // "ucx", "tcp"
  std::string token;
  std::chrono::milliseconds wait{20000};
  int device = 0;          // this rank's device: its server's memory
  std::uint64_t size = 0;  // bytes a put
  std::uint64_t warmup = 0, executions = 1;
};

class PairedPut {
 public:
  // Every rank calls it (collective; `partner` < 0: sitting this one out). Returns once this rank's
  // region is exposed to its partner. `source` is this rank's, reused across pairs.
  PairedPut(Runtime& group, Backend& backend, PutSource& source, const PairedPutPlan& plan, int partner,
            std::string partner_name);
  // Every rank calls it: the warm-up and timed executions, this rank putting when `sending`.
  // `max_over_ranks`: an execution lasts until the slower side of the pair is done (both ways at
  // once); else each sender's own time. `on_time` gets each timed execution's microseconds at every
  // rank (an idle one's clock spans only the line-up, or with max_over_ranks the pair's).
  void measure(bool sending, bool max_over_ranks, const std::function<void(double us)>& on_time);
  // The first byte of the partner's region that differs from the pattern of `seed`, if any.
  std::optional<std::uint64_t> verify(std::uint64_t seed);
  // The client says done, then this rank's server ends its session (a rank sitting out: nothing).
  void finish();

 private:
  Runtime& group_;
  PutSource& source_;
  PairedPutPlan plan_;
  std::optional<PeerServerThread> server_;
  std::unique_ptr<ClientSession> client_;
  PeerRegion remote_;
};

}  // namespace xb
