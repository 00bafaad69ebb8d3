#pragma once
// The fleet's diagnosis at rank 0, apart from any transport (it runs the same in the simulation):
// the first pass judged (fleet_verdict.hpp), then the suspects measured again, ClusterKit-style:
// every suspect pair at once (a congested switch or a burst of other work clears most in one round),
// then a group still slow is halved, and again, until a link slow when measured alone is named.
// Last, localisation names a node whose every link is slow. The caller alternates next_group() and
// measured_again() until the group is empty, then takes verdict().
#include <cstdint>
#include <deque>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "jobs/fleet/fleet_schedule.hpp"
#include "jobs/fleet/fleet_verdict.hpp"

namespace xb {

using FleetLinkSet = std::set<std::pair<int, int>>;  // directed links (from rank, to rank)

// A suspect node (every link flagged: a bad NIC) has N - 1 pairs, which take N - 1 steps to measure
// again (they share the node). This many of them, with partners not suspect, stand for all: slow again
// alone, the node's other links are confirmed with them; any cleared, the others are measured again too.
// At 1024 ranks: 3 retest steps for a bad NIC, not 1023.
inline constexpr std::size_t kFleetNodeProbes = 3;

// The steps that measure a group of suspect links at once: their pairs (both directions of a pair
// in one), each rank in one pair a step, at most `max_pairs` pairs a step (0: no cap).
std::vector<FleetStep> fleet_retest_steps(const FleetLinkSet& links, std::size_t max_pairs);

class FleetDiagnosis {
 public:
  // `max_pairs`: the retests' cap on pairs at once (0: none), to know which pair ran alone in its step.
  FleetDiagnosis(int ranks, double threshold, FleetFloorFn floor, std::size_t max_pairs = 0);

  // The first pass over every link: judged, the suspects (flagged links) pending as one group.
  void first_pass(std::vector<FleetLink> links);
  // The suspects to measure next, all at once; empty when every suspect is cleared or confirmed.
  FleetLinkSet next_group();
  // The figures of the group just measured (a link missing counts as slow again). A link slow again
  // whose pair ran alone in its step (fleet_retest_steps) is confirmed; the others still slow are
  // halved. When the first pass flagged every link (below the floor, say), those slow again in the
  // first retest are confirmed at once, not halved down to each pair alone (523,776 steps at 1024 ranks).
  void measured_again(const std::vector<FleetLink>& again);
  // Without confirmation: the first pass's flags stand.
  void skip_confirmation();

  // Confirmed links (with their first figure and why), cleared ones, the named nodes, the rounds.
  FleetVerdict verdict() const;
  // Every link with the figure a result shows: the first pass's, or the last one measured again
  // (what the verdict decided by). Gives up the diagnosis's copy: one list of every link at rank 0.
  std::vector<FleetLink> shown() &&;

  // Bytes held (every link's figure, the suspects, their state): rank 0's share, as the simulation reports.
  std::size_t bytes_held() const;

 private:
  enum class State : std::uint8_t { pending, cleared, confirmed };
  int ranks_;
  FleetFloorFn floor_;
  std::size_t max_pairs_;
  FleetVerdict first_;
  std::vector<FleetLink> measured_;             // the first pass, every link
  std::vector<FleetLink> again_;                // every retest's figures, in the order measured
  std::vector<State> state_;                    // of each of first_.flagged
  // The flagged links of each suspect pair (indices into first_.flagged), by the pair's key.
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> of_pair_;
  std::deque<std::vector<FleetPair>> pending_;  // groups of suspect pairs, measured a group at once
  std::vector<FleetPair> current_;              // the group handed out by next_group()
  std::unordered_set<std::uint64_t> alone_;     // its pairs that run alone in their step
  // Suspect nodes: the pairs measured again for each, and its other pairs, held back until the
  // probes are settled (then confirmed with them, or measured again as a group).
  struct NodeProbes {
    std::vector<FleetPair> probes, held;
  };
  std::unordered_map<int, NodeProbes> nodes_;
  void settle_held_pairs();
  int retests_ = 0;
  bool every_link_flagged_ = false;  // by the first pass
};

}  // namespace xb
