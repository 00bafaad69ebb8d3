#pragma once
// The Runtime of two nodes that meet through a directory both see (ascend-dmi --sp 0/1 --spp DIR,
// `xferbench p2p --ip --hip --spp DIR`): the TCP pair's connection, its address found through
// the shared directory (SharedDirRendezvous: rank 0 listens on any port and publishes it, rank 1
// reads it) instead of the fixed port. Everything else is the TCP pair's: the start window, the
// token both ways, rank 0 taking only the --ip address.
#include <chrono>
#include <string>
#include <vector>

#include "runtime/runtime.hpp"
#include "runtime/shared_dir_rendezvous.hpp"
#include "runtime/tcp_pair_runtime.hpp"

namespace xb {

// How the two nodes of a pair find each other, whichever runtime they use.
struct PairMeet {
  int rank = 0;                             // 0: listens; 1: connects
  std::string self;                         // this node's address (--hip)
  std::string peer;                         // the other node's address (--ip)
  std::chrono::milliseconds window{10000};  // the start window (the seed's 10 s)
  std::chrono::milliseconds wait{20000};    // for each collective's answer
  std::string token;
  // How messages name the node that listens, for the one that waits for it ("the other node (--sp 0)").
  std::string listener = "the other node";
};

class SharedDirRuntime final : public Runtime {
 public:
  // `device0`/`device1`, `card`: the devices of rank 0 and rank 1 as the directory's names show them.
  // Throws what SharedDirRendezvous and TcpPairRuntime throw (a path in the way, no peer in the
  // window, a peer that cannot prove the token); a published address that is not --ip's is a
  // TransportError naming both, and nothing connects there.
  SharedDirRuntime(const std::string& dir, const PairMeet& meet, int device0, int device1, bool card);
  int rank() const override { return pair_.rank(); }
  int size() const override { return pair_.size(); }
  std::string_view name() const override { return "shared-dir"; }
  void barrier() override { pair_.barrier(); }
  std::vector<std::string> allgather(const std::string& mine) override { return pair_.allgather(mine); }

 private:
  SharedDirRendezvous dir_;  // made first: the pair's hooks use it while it connects
  TcpPairRuntime pair_;
};

}  // namespace xb
