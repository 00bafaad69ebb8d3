#pragma once
// Two nodes started by hand, without MPI (`p2p --ip PEER --hip SELF [--spp DIR]`, ascend-dmi's
// `--sp 0/1 --ip --hip [--spp]`): the two-rank runtime they meet through, beside MPI's. Rank 0
// listens, rank 1 connects: on kPairRendezvousPort of rank 0's address, or on a port rank 0
// publishes in the shared directory (SharedDirRendezvous). Both must start within the start window;
// past it, a TransportError naming the address (or file) and the window, never a hang.
#include <chrono>
#include <memory>
#include <string>

#include "jobs/p2p/p2p_remote.hpp"
#include "runtime/runtime.hpp"

namespace xb {

struct TwoNodeMeet {
  int rank = 0;            // 0: listens (and makes the shared directory's pair entry); 1: connects
  std::string self;        // this node's address (--hip): listens here, serves its device memory here
  std::string peer;        // the other node's address (--ip)
  std::string shared_dir;  // "" = peer IP on the fixed port; else the shared-directory rendezvous in it
  bool card = false;       // names in the shared directory say card instead of device (ascend-dmi -m card)
  std::chrono::milliseconds window{10000};  // the start window (the seed's 10 s)
  // How messages name the node that listens, for the one that waits for it ("the other node (--sp 0)").
  std::string listener = "the other node";
};

// Meets the other node for `plan` (its wait, token and devices: even_device on rank 0, odd_device
// on rank 1), and makes `plan` this node's side: its host meet.self, every case at both nodes.
std::unique_ptr<Runtime> meet_other_node(const TwoNodeMeet& meet, P2pRemotePlan& plan);

}  // namespace xb
