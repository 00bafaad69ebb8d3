#pragma once
// Which ranks of a fleet measure their link when. The default, a round-robin tournament (the circle
// method), meets every unordered pair once, each rank in at most one pair a round, so a round's pairs
// run at once without sharing a NIC or CPU: N - 1 rounds for even N, N for odd (each rank sits one
// out: the bye). The others measure fewer: quick (half against half), a rounds file, topology-aware.
// A cap on the pairs at once splits a round into steps of at most that many pairs, in order.
#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace xb {

struct FleetPair {
  int a = 0;  // the lower rank
  int b = 0;  // the higher rank
  bool operator==(const FleetPair&) const = default;
};

// Ranks x and y as a pair, the lower first.
inline FleetPair fleet_pair(int x, int y) { return {std::min(x, y), std::max(x, y)}; }

// One step of the schedule: pairs that run at the same time, no rank twice.
using FleetStep = std::vector<FleetPair>;

// The rounds of a tournament of `ranks` (>= 2) ranks. Throws std::invalid_argument below 2.
std::vector<FleetStep> fleet_rounds(int ranks);
// How many rounds the tournament has, and round `round` alone, made in O(ranks): what a rank of a
// big fleet holds instead of every round (4096 ranks have 8.4M pairs).
int fleet_round_count(int ranks);
FleetStep fleet_round(int ranks, int round);

// A schedule's rounds: a tournament's made when asked, the other schedules' few rounds held.
class FleetRoundList {
 public:
  static FleetRoundList tournament(int ranks);
  explicit FleetRoundList(std::vector<FleetStep> rounds);
  std::size_t size() const { return count_; }
  // Round i cut into steps of at most `max_pairs` pairs (0: no cap).
  std::vector<FleetStep> steps_of_round(std::size_t i, std::size_t max_pairs) const;

 private:
  FleetRoundList() = default;
  std::size_t count_ = 0;
  int tournament_ranks_ = 0;  // > 0: a tournament, made round by round
  std::vector<FleetStep> held_;
};

// The rounds with each one cut into steps of at most `max_pairs` pairs (0: no cap).
std::vector<FleetStep> fleet_steps(int ranks, std::size_t max_pairs);

// Steps that measure `pairs` (a fleet's suspects), each rank in one pair a step, at most `max_pairs`
// pairs a step (0: no cap): greedily, in order.
std::vector<FleetStep> fleet_steps_of_pairs(const std::vector<FleetPair>& pairs, std::size_t max_pairs);

// Half against half: rank i with rank i + N/2 in one round; for odd N the rank left over meets rank
// 0 in a second round. Every rank is measured against one other, both ways.
std::vector<FleetStep> fleet_quick_rounds(int ranks);

// Topology-aware: half against half over the ranks ordered by `locations` (one per rank: "rack1/sw3";
// ties by rank): a pair joins the first half of the locations to the second, across shared uplinks.
std::vector<FleetStep> fleet_topology_rounds(const std::vector<std::string>& locations);

// A rounds file: one round per line, pairs "A-B" separated by spaces, '#' comments, blank lines
// skipped. Throws UsageError "NAME:LINE: …" for anything else, or for a file without a round.
std::vector<FleetStep> parse_fleet_rounds(std::string_view text, const std::string& name);
// Every rank below `ranks`, no rank twice in a round, no pair twice in the file; else UsageError
// naming the file, the round (its number) and the rank or pair.
void check_fleet_rounds(const std::vector<FleetStep>& rounds, int ranks, const std::string& name);

// A locations file: "HOST LOCATION" per line ('#' comments, blank lines skipped). Throws UsageError
// "NAME:LINE: …" for a line of another shape or a host given twice.
std::map<std::string, std::string> parse_fleet_locations(std::string_view text, const std::string& name);

// Rounds cut into steps of at most `max_pairs` pairs, in order (0: no cap).
std::vector<FleetStep> fleet_split_rounds(const std::vector<FleetStep>& rounds, std::size_t max_pairs);

// The partner of `rank` in `step`, or -1 when it sits the step out.
int fleet_partner(const FleetStep& step, int rank);

}  // namespace xb
