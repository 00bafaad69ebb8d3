#include "jobs/fleet/fleet_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <stdexcept>
#include <tuple>

#include "core/machine.hpp"
#include "core/plan_error.hpp"
#include "jobs/endpoint/paired_put.hpp"
#include "jobs/fleet/fleet_cases.hpp"
#include "jobs/fleet/fleet_config.hpp"
#include "jobs/fleet/fleet_diagnosis.hpp"
#include "jobs/fleet/fleet_schedule.hpp"
#include "jobs/p2p/p2p_metrics.hpp"
#include "runtime/rank_values.hpp"
#include "transport/net_devices.hpp"

namespace xb {
namespace {

// What every rank must agree on.
std::string plan_terms(const FleetPlan& plan) {
  return fmt::format("{} {}, {} {}, {} warm-up, verify {}, transport {}, {} {}, {} {}, confirm {}, schedule {} ({} "
                     "rounds given), {} {}",
                     flag("p2p.size"), plan.base.size, flag("p2p.executions"), plan.base.executions, plan.base.warmup,
                     plan.base.verify ? "on" : "off", plan.transport, flag("fleet.max_pairs"), plan.max_pairs,
                     flag("fleet.threshold"), plan.threshold, plan.confirm ? "on" : "off", plan.schedule,
                     plan.rounds.size(), flag("fleet.matrix_max_ranks"), plan.matrix_max_ranks);
}

std::uint64_t rank_seed(const FleetPlan& plan, int rank) { return plan.base.seed + static_cast<std::uint64_t>(rank); }

// One rank's part of measuring links: its put source, made once, and the steps it takes part in.
class LinkMeter {
 public:
  LinkMeter(const FleetPlan& plan, Backend& backend, Runtime& group, std::vector<FleetRank> ranks)
      : plan_(plan),
        backend_(backend),
        group_(group),
        ranks_(std::move(ranks)),
        source_(backend, plan.device, plan.base.size, plan.transport) {
    if (plan.base.verify) source_.memory().fill(0, plan.base.size, rank_seed(plan, group.rank()));
  }

  // The cases this rank is the source of, of the links of `wanted` (null: every link) in `steps`.
  // Every rank calls it with the same arguments.
  std::vector<CaseResult> measure(const std::vector<FleetStep>& steps, const FleetLinkSet* wanted) {
    std::vector<CaseResult> mine;
    for (const FleetStep& step : steps) measure_step(step, wanted, mine);
    return mine;
  }
  // Every link of every round of `rounds`, one round made at a time.
  std::vector<CaseResult> measure(const FleetRoundList& rounds) {
    std::vector<CaseResult> mine;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      for (const FleetStep& step : rounds.steps_of_round(r, plan_.max_pairs)) measure_step(step, nullptr, mine);
    }
    return mine;
  }

 private:
  void measure_step(const FleetStep& step, const FleetLinkSet* wanted, std::vector<CaseResult>& mine) {
    const int rank = group_.rank();
    const int partner = fleet_partner(step, rank);
    // A session server per step: it serves one client, the partner's, then ends.
    PairedPut pair(group_, backend_, source_,
                   {.host = plan_.host,
                    .transport = plan_.transport,
                    .token = plan_.token,
                    .wait = plan_.wait,
                    .device = plan_.device,
                    .size = plan_.base.size,
                    .warmup = plan_.base.warmup,
                    .executions = plan_.base.executions},
                   partner, fmt::format("rank {}'s address", partner));
    const auto is_wanted = [&](int from, int to) { return wanted == nullptr || wanted->count({from, to}) > 0; };
    for (const bool lower_sends : {true, false}) {  // one direction at a time per pair
      // Every rank knows the step and `wanted`, so all agree on whether this direction runs.
      const bool any = std::any_of(step.begin(), step.end(), [&](const FleetPair& p) {
        return lower_sends ? is_wanted(p.a, p.b) : is_wanted(p.b, p.a);
      });
      if (!any) continue;
      const bool sending = partner >= 0 && (rank < partner) == lower_sends && is_wanted(rank, partner);
      ElapsedRecord elapsed("host clock: put until the flush returns, timed by the sender");
      // Every pair of the step starts its execution together; each link is its sender's own figure
      // (no max over ranks: the pairs are separate links).
      pair.measure(sending, false, [&](double us) {
        if (sending) elapsed.add(us);
      });
      if (!sending) continue;
      if (plan_.base.verify) {
        if (const auto bad = pair.verify(rank_seed(plan_, rank))) {
          throw std::runtime_error(fmt::format("verify failed: rank {} -> rank {}: byte at offset {} of the "
                                               "destination differs",
                                               rank, partner, *bad));
        }
      }
      mine.push_back(fleet_link_case(plan_, std::string(backend_.name()), rank, partner, ranks_, elapsed));
    }
    pair.finish();
  }

  const FleetPlan& plan_;
  Backend& backend_;
  Runtime& group_;
  const std::vector<FleetRank> ranks_;
  PutSource source_;
};

// The rounds of the plan's schedule for these ranks (by their hosts, for topology); a tournament's
// made round by round, so no rank holds all of them.
FleetRoundList schedule_rounds(const FleetPlan& plan, const std::vector<FleetRank>& who) {
  const int ranks = static_cast<int>(who.size());
  if (plan.schedule == "quick") return FleetRoundList(fleet_quick_rounds(ranks));
  if (plan.schedule == "rounds") return FleetRoundList(plan.rounds);
  if (plan.schedule == "topology") {
    std::vector<std::string> locations;
    for (const FleetRank& r : who) {
      const auto at = plan.locations.find(r.host);
      if (at == plan.locations.end()) throw std::runtime_error(fmt::format("host {} has no location", r.host));
      locations.push_back(at->second);
    }
    return FleetRoundList(fleet_topology_rounds(locations));
  }
  return FleetRoundList::tournament(ranks);
}

// Every rank's cases at rank 0, sorted by (from, to); empty elsewhere.
std::vector<CaseResult> gather_links(Runtime& group, const std::vector<CaseResult>& mine) {
  std::vector<CaseResult> links;
  for (std::vector<CaseResult>& of_rank : gather_values(group, mine, 0)) {
    for (CaseResult& c : of_rank) links.push_back(std::move(c));
  }
  std::sort(links.begin(), links.end(),
            [](const CaseResult& x, const CaseResult& y) { return fleet_link_of(x) < fleet_link_of(y); });
  return links;
}

std::vector<FleetLink> figures_of(const std::vector<CaseResult>& cases) {
  std::vector<FleetLink> links;
  for (const CaseResult& c : cases) links.emplace_back(fleet_link_of(c).first, fleet_link_of(c).second, fleet_link_gbps(c));
  return links;
}

// Every rank's link figures at rank 0 (from, to, bandwidth_p50: 24 bytes a link, not a case's 3 KB),
// sorted by (from, to); empty elsewhere. What the diagnosis judges and the matrix shows.
std::vector<FleetLink> gather_figures(Runtime& group, const std::vector<CaseResult>& mine) {
  std::vector<std::tuple<int, int, double>> compact;
  for (const FleetLink& l : figures_of(mine)) compact.emplace_back(l.from, l.to, l.gbps);
  std::vector<FleetLink> links;
  for (const auto& of_rank : gather_values(group, compact, 0)) {
    for (const auto& [from, to, gbps] : of_rank) links.emplace_back(from, to, gbps);
  }
  std::sort(links.begin(), links.end(), fleet_link_order);
  return links;
}

// Rank 0's set of links at every rank.
FleetLinkSet share_links(Runtime& group, const FleetLinkSet& at_root) { return broadcast_value(group, at_root, 0); }

}  // namespace

FleetOutcome run(const FleetPlan& plan_in, JobContext& ctx) {
  Backend& backend = ctx.need_backend("fleet");
  Runtime& group = ctx.need_runtime("fleet");
  FleetPlan plan = plan_in;
  if (plan.transport.empty()) plan.transport = default_transport_name();
  if (plan.host.empty()) plan.host = default_host_address();
  const int rank = group.rank();
  const int ranks = group.size();

  require_ranks_agree(group, plan_terms(plan));
  // Every rank as it describes itself: host, address, device, NIC (and its ceiling, for floors).
  const std::string device =
      fmt::format("{}::device::{} ({})", backend.name(), plan.device, backend.open_device(plan.device)->info().name);
  const std::vector<FleetRank> who = allgather_values(group, FleetRank{host_name(), plan.host, device, plan.nic});
  const std::vector<std::string> nics = group.allgather(plan.nic_gbps ? fmt::format("{}", *plan.nic_gbps) : "");
  LinkMeter meter(plan, backend, group, who);

  const FleetFloorFn floor = fleet_floor_of(plan.floor_gbps, plan.floor_share, nics);

  // Each rank keeps the cases of the links it sent on; rank 0 gets their figures, and later the cases
  // the result lists (above plan.matrix_max_ranks, the slow and cleared ones only: a tournament of
  // 1024 ranks has 1M links, 3 GB of cases, 24 MB of figures).
  std::vector<CaseResult> mine = meter.measure(schedule_rounds(plan, who));
  std::vector<FleetLink> figures = gather_figures(group, mine);  // at rank 0: every link's; empty elsewhere
  FleetOutcome outcome;
  FleetDiagnosis diagnosis(ranks, plan.threshold, floor, plan.max_pairs);
  if (rank == 0) {
    diagnosis.first_pass(std::move(figures));
    if (!plan.confirm) diagnosis.skip_confirmation();
  }
  // Slow links are measured again before they are named: a bad cable stays slow, a burst of other
  // work on a shared node or switch does not. Rank 0 decides each group; every rank measures it,
  // and the source of a link keeps its confirmed figure on its case.
  while (plan.confirm) {
    const FleetLinkSet suspects = share_links(group, rank == 0 ? diagnosis.next_group() : FleetLinkSet{});
    if (suspects.empty()) break;
    const std::vector<CaseResult> again_mine = meter.measure(fleet_retest_steps(suspects, plan.max_pairs), &suspects);
    attach_fleet_confirmation(mine, figures_of(again_mine));
    const std::vector<FleetLink> second = gather_figures(group, again_mine);
    if (rank == 0) diagnosis.measured_again(second);
  }
  if (rank == 0) outcome.verdict = diagnosis.verdict();
  if (ranks > plan.matrix_max_ranks) {
    FleetLinkSet listed;  // rank 0's verdict's flagged and cleared links (empty elsewhere)
    for (const auto* list : {&outcome.verdict.flagged, &outcome.verdict.cleared}) {
      for (const FleetLink& l : *list) listed.insert({l.from, l.to});
    }
    listed = share_links(group, listed);
    std::erase_if(mine, [&](const CaseResult& c) { return listed.count(fleet_link_of(c)) == 0; });
  }
  std::vector<CaseResult> links = gather_links(group, mine);
  if (rank != 0) return outcome;
  FleetLinkSet named;
  for (const FleetLink& l : outcome.verdict.flagged) named.insert({l.from, l.to});
  for (CaseResult& c : links) c.labels.emplace_back("verdict", named.count(fleet_link_of(c)) ? "slow" : "ok");
  CaseResult matrix = fleet_matrix_case(plan, who, std::move(diagnosis).shown(), outcome.verdict);
  outcome.cases = std::move(links);
  outcome.cases.push_back(std::move(matrix));
  for (const CaseResult& c : outcome.cases) ctx.emit(c);
  return outcome;
}

}  // namespace xb
