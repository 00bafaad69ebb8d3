#pragma once
// Which ranks of a fleet measure their link when: a round-robin tournament (the circle method).
// Every unordered pair of ranks meets exactly once; in a round each rank is in at most one pair,
// so the pairs of a round can run at once without sharing a rank's NIC or CPU. N ranks take N - 1
// rounds when N is even, N when odd (each rank sits one round out: the bye). A cap on the pairs
// running at once splits a round into steps of at most that many pairs, in order.
#include <cstddef>
#include <vector>

namespace xb {

struct FleetPair {
  int a = 0;  // the lower rank
  int b = 0;  // the higher rank
  bool operator==(const FleetPair&) const = default;
};

// One step of the schedule: pairs that run at the same time, no rank twice.
using FleetStep = std::vector<FleetPair>;

// The rounds of a tournament of `ranks` (>= 2) ranks. Throws std::invalid_argument below 2.
std::vector<FleetStep> fleet_rounds(int ranks);

// The rounds with each one cut into steps of at most `max_pairs` pairs (0: no cap).
std::vector<FleetStep> fleet_steps(int ranks, std::size_t max_pairs);

// Steps that measure `pairs` (any pairs, e.g. a fleet's suspects) with every rank in at most one
// pair per step and at most `max_pairs` pairs per step (0: no cap): greedily, in order.
std::vector<FleetStep> fleet_steps_of_pairs(const std::vector<FleetPair>& pairs, std::size_t max_pairs);

// The partner of `rank` in `step`, or -1 when it sits the step out.
int fleet_partner(const FleetStep& step, int rank);

}  // namespace xb
