#pragma once
// The fleet's diagnosis at rank 0 (issue 17 item 4), apart from any transport so it runs the same
// over real ranks and in the simulation: the first pass judged (fleet_verdict.hpp), then the
// suspects measured again until each is cleared or confirmed, ClusterKit-style: every suspect pair
// at once first (a congested switch or a burst of other work clears most of them in one round),
// then a group whose links are still slow is halved, and halved again, until a link is slow when
// measured alone: only then is it named. Last, localisation names a node whose every link is slow.
//
// The caller alternates next_group() (the directed links to measure, all at once; empty: done) and
// measured_again() (their figures), then takes verdict().
#include <deque>
#include <set>
#include <utility>
#include <vector>

#include "jobs/fleet/fleet_schedule.hpp"
#include "jobs/fleet/fleet_verdict.hpp"

namespace xb {

using FleetLinkSet = std::set<std::pair<int, int>>;  // directed links (from rank, to rank)

class FleetDiagnosis {
 public:
  FleetDiagnosis(int ranks, double threshold, FleetFloorFn floor);

  // The first pass over every link: judged, the suspects (flagged links) pending as one group.
  void first_pass(std::vector<FleetLink> links);
  // The suspects to measure next, all at once; empty when every suspect is cleared or confirmed.
  FleetLinkSet next_group();
  // The figures of the group just measured (a link missing from them counts as slow again).
  void measured_again(const std::vector<FleetLink>& again);
  // Without confirmation: the first pass's flags stand.
  void skip_confirmation();

  // Confirmed links (with their first figure and why), cleared ones, the named nodes, the rounds.
  FleetVerdict verdict() const;

 private:
  int ranks_;
  FleetFloorFn floor_;
  FleetVerdict first_;
  std::vector<FleetLink> measured_;             // the first pass, every link
  std::deque<std::vector<FleetPair>> pending_;  // groups of suspect pairs, measured a group at once
  std::vector<FleetPair> current_;              // the group handed out by next_group()
  FleetLinkSet confirmed_, cleared_;
  int retests_ = 0;
};

}  // namespace xb
