// The fleet at 1024 and 4096 ranks, simulated (issue 17 item 5; docs/fleet.md "At scale"): for each
// schedule, one slow node, one bad cable and two bursts injected; prints the steps to a verdict,
// the time at a stated cost per step, the bytes rank 0 and another rank hold, the matrix case's
// JSON size and this simulation's own run time. Usage: fleet_scale_bench [STEP_SECONDS]
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "fleet/fleet_simulation.hpp"

namespace {

std::string mib(std::size_t bytes) { return fmt::format("{:.2f} MiB", static_cast<double>(bytes) / (1 << 20)); }

}  // namespace

int main(int argc, char** argv) {
  const double step_seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  fmt::print("{:>5} {:<11} {:>10} {:>6} {:>7} {:>10} {:>5} {:>5} {:>7} {:>12} {:>12} {:>13} {:>7}\n", "ranks", "schedule",
             "links", "steps", "retests", "time", "nodes", "links", "cleared", "rank 0", "other rank", "matrix JSON", "ran");
  for (const int ranks : {1024, 4096}) {
    for (const std::string schedule : {"round-robin", "quick", "topology"}) {
      xb::FleetSimulation sim;
      sim.ranks = ranks;
      sim.schedule = schedule;
      sim.step_seconds = step_seconds;
      for (int r = 0; r < ranks; ++r) sim.locations.push_back(fmt::format("rack{:02}", r % 64));
      sim.slow_nodes = {17};
      sim.slow_links = {{3, 3 + ranks / 2}};  // a pair every schedule measures
      sim.transient_links = {{100, 100 + ranks / 2}, {6 + ranks / 2, 6}};
      const auto start = std::chrono::steady_clock::now();
      const xb::FleetSimulationOutcome out = xb::simulate_fleet(sim);
      const double ran = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print("{:>5} {:<11} {:>10} {:>6} {:>7} {:>9.0f}s {:>5} {:>5} {:>7} {:>12} {:>12} {:>13} {:>6.1f}s\n", ranks, schedule,
                 out.links, out.first_steps, out.retest_steps, out.seconds, out.verdict.nodes.size(),
                 out.verdict.links.size(), out.verdict.cleared.size(), mib(out.root_bytes), mib(out.rank_bytes),
                 mib(out.result_bytes), ran);
    }
  }
  return 0;
}
