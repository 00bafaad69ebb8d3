#include "fleet/fleet_simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_set>

#include "core/splitmix.hpp"
#include "jobs/fleet/fleet_cases.hpp"
#include "jobs/fleet/fleet_diagnosis.hpp"
#include "jobs/fleet/fleet_schedule.hpp"

namespace xb {
namespace {

// The modelled links: a figure for any directed link, first pass or measured again.
class LinkModel {
 public:
  explicit LinkModel(const FleetSimulation& sim) : sim_(sim) {
    const auto check = [&](int r) {
      if (r < 0 || r >= sim.ranks) throw std::invalid_argument(fmt::format("rank {} is not in a fleet of {}", r, sim.ranks));
    };
    for (const int r : sim.slow_nodes) {
      check(r);
      slow_nodes_.insert(r);
    }
    for (const auto& [from, to] : sim.slow_links) {
      check(from);
      check(to);
      slow_.insert(fleet_link_key(from, to));
    }
    for (const auto& [from, to] : sim.transient_links) {
      check(from);
      check(to);
      transient_.insert(fleet_link_key(from, to));
    }
  }

  double gbps(int from, int to, bool again) const {
    // Healthy: link_gbps within ± spread, the same draw for a link every time it is measured.
    const double unit = static_cast<double>(splitmix64(sim_.seed ^ fleet_link_key(from, to)) >> 11) * 0x1.0p-53;  // [0, 1)
    const double healthy = sim_.link_gbps * (1 + sim_.spread * (2 * unit - 1));
    const bool slow = slow_nodes_.count(from) > 0 || slow_nodes_.count(to) > 0 || slow_.count(fleet_link_key(from, to)) > 0 ||
                      (!again && transient_.count(fleet_link_key(from, to)) > 0);
    return slow ? healthy * sim_.slow_share : healthy;
  }

 private:
  const FleetSimulation& sim_;
  std::unordered_set<int> slow_nodes_;
  std::unordered_set<std::uint64_t> slow_, transient_;
};

FleetRoundList rounds_of(const FleetSimulation& sim) {
  if (sim.schedule == "round-robin") return FleetRoundList::tournament(sim.ranks);
  if (sim.schedule == "quick") return FleetRoundList(fleet_quick_rounds(sim.ranks));
  if (sim.schedule == "topology") {
    if (static_cast<int>(sim.locations.size()) != sim.ranks) {
      throw std::invalid_argument(fmt::format("topology: {} locations for {} ranks", sim.locations.size(), sim.ranks));
    }
    return FleetRoundList(fleet_topology_rounds(sim.locations));
  }
  throw std::invalid_argument(fmt::format("no schedule \"{}\" to simulate (round-robin, quick, topology)", sim.schedule));
}

}  // namespace

FleetSimulationOutcome simulate_fleet(const FleetSimulation& sim) {
  if (sim.ranks < 2) throw std::invalid_argument(fmt::format("a fleet needs 2 ranks at least, not {}", sim.ranks));
  const LinkModel model(sim);
  FleetSimulationOutcome out;
  const FleetRoundList rounds = rounds_of(sim);

  // The first pass: every round's steps, both directions of each pair. A rank other than 0 holds the
  // step it is in and the figures of the links it sends on, no more.
  std::vector<FleetLink> measured;
  std::vector<std::size_t> sent(static_cast<std::size_t>(sim.ranks));
  std::size_t largest_step = 0;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    for (const FleetStep& step : rounds.steps_of_round(r, sim.max_pairs)) {
      ++out.first_steps;
      largest_step = std::max(largest_step, step.capacity());
      for (const FleetPair& p : step) {
        measured.emplace_back(p.a, p.b, model.gbps(p.a, p.b, false));
        measured.emplace_back(p.b, p.a, model.gbps(p.b, p.a, false));
        ++sent[static_cast<std::size_t>(p.a)];
        ++sent[static_cast<std::size_t>(p.b)];
      }
    }
  }
  out.links = measured.size();
  std::sort(measured.begin(), measured.end(), fleet_link_order);
  const std::size_t most_sent = *std::max_element(sent.begin() + 1, sent.end());
  out.rank_bytes = largest_step * sizeof(FleetPair) + most_sent * sizeof(FleetLink);

  // Rank 0's diagnosis: suspects measured again, all at once, then halves, until each is settled.
  const FleetFloorFn floor = [&](int, int) { return sim.floor_gbps; };
  FleetDiagnosis diagnosis(sim.ranks, sim.threshold, floor, sim.max_pairs);
  diagnosis.first_pass(std::move(measured));
  out.root_bytes = diagnosis.bytes_held();
  for (FleetLinkSet group = diagnosis.next_group(); !group.empty(); group = diagnosis.next_group()) {
    out.retest_steps += fleet_retest_steps(group, sim.max_pairs).size();
    std::vector<FleetLink> again;
    for (const auto& [from, to] : group) again.emplace_back(from, to, model.gbps(from, to, true));
    diagnosis.measured_again(again);
    out.root_bytes = std::max(out.root_bytes, diagnosis.bytes_held());
  }
  out.verdict = diagnosis.verdict();
  out.seconds = static_cast<double>(out.first_steps + out.retest_steps) * sim.step_seconds;

  if (sim.build_matrix) {
    FleetPlan plan;
    plan.base.size = 64ull << 20;
    plan.threshold = sim.threshold;
    plan.max_pairs = sim.max_pairs;
    plan.schedule = sim.schedule;
    std::vector<FleetRank> who;
    for (int r = 0; r < sim.ranks; ++r) who.push_back({fmt::format("node-{}", r), fmt::format("10.{}.{}.{}", r >> 16, (r >> 8) & 255, r & 255), "cpu::device::0", ""});
    const CaseResult matrix = fleet_matrix_case(plan, who, std::move(diagnosis).shown(), out.verdict);
    out.result_bytes = nlohmann::json(matrix).dump().size();
  }
  return out;
}

}  // namespace xb
