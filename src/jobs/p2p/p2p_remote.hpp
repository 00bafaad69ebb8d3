#pragma once
// The p2p job across nodes: device memory of one rank put into device memory of another over a
// transport (transport.hpp: one-sided put + flush), ranks paired (0,1), (2,3), … and lined up by a
// Runtime (MPI, or two nodes started by hand: p2p_two_nodes). Even ranks use --ds's device, odd
// ranks --dd's.
//
// Every rank serves its own device memory on a thread (PeerServerThread) and drives a client to its
// partner's server from its main thread, so both directions can run at once. Pairs are measured
// one after another (the others wait at the barriers), each in the seed's order: b -> a, b <-> a,
// a -> b, a <-> b (ascend-dmi's MPI example prints rank 1 -> rank 0 first).
//
// Every execution starts with a barrier of all ranks; each active rank times its own put + flush
// (host clock: the transport completes on the host), and the execution's time is the largest of
// the pair's (an all-ranks max), so a bidirectional execution ends when both directions are done.
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

// Runs the plan on this rank of ctx.runtime, with ctx.backend's devices: every pair's cases in order
// at rank 0 (at every rank with results_everywhere), each also to ctx.on_case there as it completes
// (gathered case by case); elsewhere empty.
// The ranks first compare their plans (size, executions, warm-up, verify, transport): a mismatch is
// an error naming both, as the seed requires the same --et on both nodes. Each case names its ranks
// and devices in config (from_rank, from_device, to_rank, to_device, from_node…). Throws (naming the
// call and the peer) on a transport, device or verification error; the caller must then end every
// rank (MPI_Abort), since the others wait in a collective.
std::vector<CaseResult> run(const P2pRemotePlan& plan, JobContext& ctx);

// The device a rank uses.
int p2p_remote_device(const P2pRemotePlan& plan, int rank);

}  // namespace xb
