#pragma once
// Two nodes started by hand, without MPI: how they meet, then the cross-node p2p job between them
// (run(P2pRemotePlan), with results on both nodes). Shared by `xferbench p2p --ip PEER --hip SELF
// [--spp DIR]` and the ascend-dmi dialect's `--sp 0/1 --ip --hip [--spp]`, which differ only in
// how a node learns its rank: the dialect is told (--sp), the native command derives it from the
// two addresses (p2p_rank_by_address), so both nodes run the same command line mirrored.
//
// Rank 0 listens, rank 1 connects: on kPairRendezvousPort of rank 0's address (peer IP), or on a
// port rank 0 publishes in the shared directory (SharedDirRendezvous). Both must start within the start
// window; past it, a TransportError naming the address (or file) and the window, never a hang.
#include <chrono>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "jobs/job_context.hpp"
#include "jobs/p2p/p2p_remote.hpp"

namespace xb {

struct P2pTwoNodeMeet {
  int rank = 0;            // 0: listens (and makes the shared directory's pair entry); 1: connects
  std::string self;        // this node's address (--hip): listens here, serves its device memory here
  std::string peer;        // the other node's address (--ip)
  std::string shared_dir;  // "" = peer IP on the fixed port; else the shared-directory rendezvous in it
  bool card = false;       // names in the shared directory say card instead of device (ascend-dmi -m card)
  std::chrono::milliseconds window{10000};  // the start window (the seed's 10 s)
  // How messages name the node that listens, for the one that waits for it ("the other node (--sp 0)").
  std::string listener = "the other node";
};

// The cross-node p2p job between two nodes that meet as `meet` says.
struct P2pTwoNodePlan {
  P2pRemotePlan remote;
  P2pTwoNodeMeet meet;
};

// Meets the other node (this job makes its own two-rank runtime: ctx.runtime is not used) and runs
// plan.remote between the two on ctx.backend (its host is meet.self; the devices are even_device
// on rank 0 and odd_device on rank 1). Both nodes return the same cases.
std::vector<CaseResult> run(const P2pTwoNodePlan& plan, JobContext& ctx);

// PlanError "FLAG VALUE: not a valid IP address" unless `value` is a literal IPv4 or IPv6 address;
// `flag_name` is the caller's flag as its users type it, or a field marked with flag().
void check_p2p_ip(const std::string& value, const std::string& flag_name);

// The native command's rank rule: the node with the lower address (byte by byte) is rank 0; both
// nodes compute the same answer from the same two addresses, so neither needs a role flag.
// check_p2p_address_pair: PlanError naming p2p.peer_ip or p2p.host_ip unless both are literal
// addresses of one family and different (else both nodes could take the same rank).
// p2p_rank_by_address expects a checked pair (std::invalid_argument otherwise).
void check_p2p_address_pair(const std::string& peer, const std::string& self);
int p2p_rank_by_address(const std::string& self, const std::string& peer);

}  // namespace xb
