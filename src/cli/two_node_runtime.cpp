#include "cli/two_node_runtime.hpp"

#include "runtime/shared_dir_runtime.hpp"
#include "runtime/tcp_pair_runtime.hpp"

namespace xb {

std::unique_ptr<Runtime> meet_other_node(const TwoNodeMeet& meet, P2pRemotePlan& plan) {
  plan.host = meet.self;
  plan.results_everywhere = true;  // each node prints the run
  if (meet.shared_dir.empty()) {
    return std::make_unique<TcpPairRuntime>(meet.rank, meet.self, meet.peer, kPairRendezvousPort, meet.window,
                                            plan.wait, plan.token);
  }
  const PairMeet pair{.rank = meet.rank,
                      .self = meet.self,
                      .peer = meet.peer,
                      .window = meet.window,
                      .wait = plan.wait,
                      .token = plan.token,
                      .listener = meet.listener};
  return std::make_unique<SharedDirRuntime>(meet.shared_dir, pair, plan.even_device, plan.odd_device, meet.card);
}

}  // namespace xb
