#pragma once
// The fleet job: every link between the ranks of a group (one rank per node, launched by MPI)
// measured one way in each direction, the results as a bandwidth matrix, and the slow links named.
//
// Pairs meet in the steps of a round-robin schedule (fleet_schedule.hpp): the pairs of a step run at
// once (capped by max_pairs), each rank in at most one. In a step each paired rank serves its device
// memory (a session server on a thread, P2pPeerServer) and connects a client to its partner's; the
// lower rank puts into the higher one, then the higher into the lower. Every execution starts with
// a barrier of all ranks, so the pairs of a step run side by side; the source rank times its own
// put + flush (host clock).
//
// A link's figure is its bandwidth at the median execution (size / elapsed p50): a validator wants a
// link's usual rate, and one stalled execution on a shared machine should not flag a good cable.
// With confirm (the default) the links found below the threshold are measured again, each alone,
// and named only when slow again (against the first pass's median): a bad cable stays slow, a
// burst of other work on a node or switch passes.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/fleet/fleet_verdict.hpp"
#include "jobs/p2p/p2p_plan.hpp"
#include "jobs/p2p/p2p_remote.hpp"

namespace xb {

struct FleetPlan {
  P2pPlan base;               // size, executions, warmup, verify, seed (pairs unused)
  int device = 0;             // the device every rank uses
  std::size_t max_pairs = 0;  // pairs running at once at most (0: every pair of a round)
  double threshold = 0.8;     // a link below threshold x the median link is flagged (0: none)
  bool confirm = true;        // measure a slow link again, alone, before naming it
  std::string transport;      // "" = default_transport_name()
  std::string host;           // this rank's address (listen and announce); "" = p2p_default_host()
  std::string token;
  std::chrono::milliseconds wait{20000};  // for the partner, and for each flush
};

struct FleetOutcome {
  // At rank 0: one "fleet_link" case per direction of every pair (from rank, to rank; label
  // "verdict" ok or slow; metric bandwidth_p50_again where it was measured again), then the
  // "fleet_matrix" case (config["matrix"], config["flagged"], config["cleared"]).
  // Empty at the other ranks.
  std::vector<CaseResult> cases;
  FleetVerdict verdict;  // at rank 0
};

// Runs the plan on this rank of ctx.runtime (every rank of the group calls it), with ctx.backend's
// devices; rank 0's cases also go to ctx.on_case at the end (the verdict needs every link first). The ranks first compare their
// plans: a mismatch is an error naming both. Throws naming the call and the peer on a transport,
// device or verification error; the caller must then end every rank (MPI_Abort).
FleetOutcome run(const FleetPlan& plan, JobContext& ctx);

}  // namespace xb
