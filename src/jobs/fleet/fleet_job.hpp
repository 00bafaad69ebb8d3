#pragma once
// The fleet job: every link between the ranks of a group (one rank per node, launched by MPI)
// measured both ways, as a bandwidth matrix, with the slow links named. Pairs meet in the steps of a
// schedule (fleet_schedule.hpp); each paired rank serves its device memory and puts into its
// partner's, the lower rank first; every execution starts with a barrier of all ranks, so a step's
// pairs run side by side. A link's figure is its bandwidth at the median execution (the source's put
// + flush, host clock): its usual rate, so one stalled execution on a shared machine flags no good cable.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/fleet/fleet_config.hpp"
#include "jobs/fleet/fleet_schedule.hpp"
#include "jobs/fleet/fleet_verdict.hpp"
#include "jobs/p2p/p2p_plan.hpp"

namespace xb {

struct FleetPlan {
  P2pPlan base;               // size, executions, warmup, verify, seed (pairs unused)
  int device = 0;             // the device every rank uses
  std::size_t max_pairs = 0;  // pairs running at once at most (0: every pair of a round)
  double threshold = 0.8;     // a link below threshold x the median link is flagged (0: none)
  bool confirm = true;        // measure a slow link again, alone, before naming it
  std::string transport;      // "" = default_transport_name()
  std::string host;           // this rank's address (listen and announce); "" = default_host_address()
  std::string token;
  std::chrono::milliseconds wait{20000};  // for the partner, and for each flush
  // The absolute floor from the expectation layers, already times the rule's fail_below: a figure for
  // every link, or a share of the narrower of its two ends' NIC ceilings; neither: fleet-relative only.
  std::optional<double> floor_gbps, floor_share;
  std::string floor_rule;  // the deciding rule in words, for the record
  // This rank's NIC ceiling (decimal GB/s) and how it was derived; the ranks share theirs.
  std::optional<double> nic_gbps;
  std::string nic;
  // Which pairs meet: "round-robin" (every link), "quick", "rounds" (`rounds`) or "topology"
  // (`locations`: host → location, every rank's host in it); the caller checks both against the fleet.
  std::string schedule = "round-robin";
  std::vector<FleetStep> rounds;
  std::map<std::string, std::string> locations;
  // Up to this many ranks every link has its case and the matrix is carried; above, only the flagged
  // and cleared links (1024 ranks have 1M links). `--matrix-max-ranks` lowers it, so a small fleet
  // can check the path a big one takes.
  int matrix_max_ranks = kFleetMatrixMaxRanks;
};

struct FleetOutcome {
  // At rank 0 (empty elsewhere): one "fleet_link" case per direction of every pair measured (label
  // "verdict" ok or slow; metric bandwidth_p50_again where measured again), then the "fleet_matrix"
  // case (config matrix, flagged, cleared). Above plan.matrix_max_ranks, see FleetPlan.
  std::vector<CaseResult> cases;
  FleetVerdict verdict;  // at rank 0
};

// Runs the plan on this rank of ctx.runtime (every rank calls it) with ctx.backend's devices; rank
// 0's cases also go to ctx.on_case at the end (the verdict needs every link first). The ranks first
// compare their plans (a mismatch names both). Throws naming the call and the peer on a transport,
// device or verification error; the caller must then end every rank (MPI_Abort).
FleetOutcome run(const FleetPlan& plan, JobContext& ctx);

}  // namespace xb
