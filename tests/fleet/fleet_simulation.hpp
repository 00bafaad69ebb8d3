#pragma once
// The fleet at scale, simulated in-process: a schedule's rounds, the diagnosis of
// rank 0 (first pass, suspects measured again, localisation) and the result's matrix, run for
// thousands of ranks over a model of the links instead of a network: every link healthy at about
// `link_gbps`, except the slow nodes and links injected, and "transient" links slow in the first
// pass only (a burst of other work). The same code as a real run decides (FleetRoundList,
// fleet_steps_of_pairs, FleetDiagnosis, fleet_matrix_case); only the figures are modelled. It says
// how many steps a verdict takes, the time at a stated cost per step, the bytes rank 0 and the other
// ranks hold, and the size of the result.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jobs/fleet/fleet_verdict.hpp"

namespace xb {

struct FleetSimulation {
  int ranks = 0;
  std::string schedule = "round-robin";  // round-robin, quick or topology
  std::vector<std::string> locations;    // topology: one per rank
  std::size_t max_pairs = 0;             // pairs at once at most (0: a round's every pair)
  double threshold = 0.8;
  std::optional<double> floor_gbps;      // an absolute floor for every link (the expectation layers')
  double link_gbps = 25;                 // a healthy link, decimal GB/s
  double spread = 0.05;                  // healthy links differ by up to ± this share (drawn from seed)
  double slow_share = 0.3;               // a slow link runs at this share of link_gbps
  std::vector<int> slow_nodes;                       // every link of these ranks is slow
  std::vector<std::pair<int, int>> slow_links;       // these directed links are slow
  std::vector<std::pair<int, int>> transient_links;  // slow in the first pass only
  double step_seconds = 1;               // the stated cost of one step (its pairs, both ways)
  bool build_matrix = true;              // build the matrix case (its JSON size); off: lists only
  std::uint64_t seed = 1;
};

struct FleetSimulationOutcome {
  FleetVerdict verdict;
  std::size_t links = 0;         // measured in the first pass
  std::size_t first_steps = 0;   // steps of the schedule
  std::size_t retest_steps = 0;  // steps measuring suspects again (groups, then halves)
  double seconds = 0;            // (first_steps + retest_steps) x step_seconds: time to the verdict
  std::size_t root_bytes = 0;    // rank 0: the diagnosis (every link's figure) at its largest
  std::size_t rank_bytes = 0;    // any other rank, at most: the round it is in and its own links' figures
  std::size_t result_bytes = 0;  // the matrix case as JSON (0 without build_matrix)
};

// Runs the simulation. Throws std::invalid_argument for fewer than 2 ranks, an unknown schedule,
// or an injected rank outside the fleet.
FleetSimulationOutcome simulate_fleet(const FleetSimulation& sim);

}  // namespace xb
