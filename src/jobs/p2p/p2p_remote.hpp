#pragma once
// The p2p job across nodes: one rank's device memory put into another's over a transport (one-sided
// put + flush), ranks paired (0,1), (2,3), … by a Runtime (MPI, or p2p_two_nodes); even ranks use
// --ds's device, odd ranks --dd's. Each rank serves its memory on a thread and drives a client to its
// partner from the main one, so both directions can run at once. Pairs run one after another, each in
// the seed's order b -> a, b <-> a, a -> b, a <-> b (ascend-dmi's MPI example prints rank 1 -> rank 0
// first). An execution starts at an all-ranks barrier and lasts the slower side's put + flush (host clock).
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/p2p/p2p_plan.hpp"
#include "runtime/runtime.hpp"

namespace xb {

struct P2pRemotePlan {
  P2pPlan base;        // size, executions, warmup, verify, seed (pairs and all_pairs unused)
  int even_device = 0; // --ds: the device of rank 0 (and every even rank)
  int odd_device = 1;  // --dd: the device of rank 1 (and every odd rank)
  std::string transport;  // "" = default_transport_name()
  std::string host;       // this rank's address (listen and announce); "" = default_host_address()
  std::string token;
  std::chrono::milliseconds wait{20000};  // for the partner, and for each flush
  // The seed's MPI order (b -> a, b <-> a, a -> b, a <-> b), or only a -> b and a <-> b (its
  // two-node mode, where each node prints one unidirectional and one bidirectional block).
  bool both_orders = true;
  // The cases at every rank (each node of a two-node run prints them), not only at rank 0.
  bool results_everywhere = false;
};

// Runs the plan on this rank of ctx.runtime: every pair's cases in order at rank 0 (every rank with
// results_everywhere), each to ctx.on_case as it completes; elsewhere empty. The ranks first compare
// their plans: a mismatch is an error naming both (the seed requires the same --et on both nodes).
// Throws (naming the call and the peer) on a transport, device or verification error; the caller must
// then end every rank (MPI_Abort), since the others wait in a collective.
std::vector<CaseResult> run(const P2pRemotePlan& plan, JobContext& ctx);

}  // namespace xb
