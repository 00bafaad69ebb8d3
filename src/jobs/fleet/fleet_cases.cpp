#include "jobs/fleet/fleet_cases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/matrix.hpp"
#include "core/size.hpp"
#include "jobs/fleet/fleet_config.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/p2p/p2p_job.hpp"

namespace xb {

std::string fleet_rank_name(int rank, const FleetRank& who) {
  return who.host.empty() ? fmt::format("rank {} ({})", rank, who.address)
                          : fmt::format("rank {} ({} {})", rank, who.host, who.address);
}

std::pair<int, int> fleet_link_of(const CaseResult& c) { return p2p_ranks_of(c.config); }

double fleet_link_gbps(const CaseResult& c) {
  const Metric* m = c.find_metric("bandwidth_p50");
  return m != nullptr ? m->value : 0;
}

CaseResult fleet_link_case(const FleetPlan& plan, const std::string& backend, int from, int to,
                           const std::vector<FleetRank>& ranks, const ElapsedRecord& elapsed) {
  const std::string from_name = fleet_rank_name(from, ranks.at(static_cast<std::size_t>(from)));
  const std::string to_name = fleet_rank_name(to, ranks.at(static_cast<std::size_t>(to)));
  CaseResult c = make_p2p_case(plan.base, backend, from_name, to_name, false, elapsed);
  c.job = "fleet";
  c.name = "fleet_link";
  c.title = fmt::format("fleet links, {} per execution, {} executions each, bandwidth judged at the median execution",
                        format_size(plan.base.size), plan.base.executions);
  const Metric* p50 = c.find_metric("elapsed_p50");
  const double p50_us = p50 != nullptr ? p50->value : 0;
  c.metrics.insert(c.metrics.begin(), Metric{"bandwidth_p50", p2p_bandwidth_gbps(static_cast<double>(plan.base.size), p50_us),
                                             "GB/s", "size / elapsed_p50 (decimal GB/s): what the verdict judges"});
  auto config = c.config.get<P2pConfig>();
  config.scope = "fleet";
  config.launcher = "mpi";
  config.transport = plan.transport;
  config.timing = "host clock per execution at the source rank: put + flush";
  config.from_rank = from;
  config.to_rank = to;
  config.device = plan.device;
  c.config = config;
  return c;
}

CaseResult fleet_matrix_case(const FleetPlan& plan, const std::vector<FleetRank>& who,
                             const std::vector<FleetLink>& links, const FleetVerdict& verdict) {
  const int ranks = static_cast<int>(who.size());
  Matrix m;
  m.title = fmt::format("fleet link bandwidth at the median execution (a link measured again: its confirmed figure), "
                        "{} per execution, row = source, column = destination",
                        format_size(plan.base.size));
  m.unit = "GB/s";
  const bool with_matrix = ranks <= plan.matrix_max_ranks;
  for (int r = 0; r < ranks; ++r) {
    m.rows.push_back(fleet_rank_name(r, who.at(static_cast<std::size_t>(r))));
    if (with_matrix) m.values.emplace_back(static_cast<std::size_t>(ranks));
  }
  m.cols = m.rows;
  double lo = 0, hi = 0;
  for (const FleetLink& l : links) {
    if (with_matrix) m.values.at(static_cast<std::size_t>(l.from)).at(static_cast<std::size_t>(l.to)) = l.gbps;
    lo = (&l == &links.front()) ? l.gbps : std::min(lo, l.gbps);
    hi = std::max(hi, l.gbps);
  }
  const auto listed = [&](const std::vector<FleetLink>& list) {
    std::vector<FleetListedLink> out;
    for (const FleetLink& l : list) {
      out.push_back({l.from, l.to, m.rows.at(static_cast<std::size_t>(l.from)),
                     m.rows.at(static_cast<std::size_t>(l.to)), l.gbps,
                     verdict.median_gbps > 0 ? l.gbps / verdict.median_gbps : 0, fleet_slow_why(l, verdict.threshold)});
    }
    return out;
  };
  CaseResult c;
  c.job = "fleet";
  c.name = "fleet_matrix";
  c.title = fmt::format("fleet of {} ranks: {} links, {} below {} x the median link", ranks, links.size(),
                        verdict.flagged.size(), verdict.threshold);
  c.labels = {{"ranks", std::to_string(ranks)}, {"size", format_size(plan.base.size)}};
  std::vector<FleetNamedNode> nodes;
  for (const FleetNode& n : verdict.nodes) {
    nodes.push_back({n.rank, m.rows.at(static_cast<std::size_t>(n.rank)), n.slow, n.links, n.median_gbps});
  }
  const FleetMatrixConfig config{
      .ranks = ranks, .size = plan.base.size, .executions = plan.base.executions, .warmup = plan.base.warmup,
      .max_pairs = plan.max_pairs, .threshold = plan.threshold, .transport = plan.transport, .device = plan.device,
      .confirm = plan.confirm, .matrix = with_matrix ? matrix_to_json(m) : nlohmann::json(),
      .flagged = listed(verdict.flagged), .cleared = listed(verdict.cleared), .nodes = std::move(nodes),
      .links_named = listed(verdict.links), .every_link_slow = verdict.every_link_slow, .floor_rule = plan.floor_rule,
      .retests = verdict.retests, .rank_info = who, .schedule = plan.schedule,
      .matrix_left_out =
          with_matrix ? std::string()
                      : fmt::format("{} ranks: above {} ranks the matrix ({} cells) and the cases of links neither "
                                    "flagged nor cleared are left out; this case's metrics sum up every link",
                                    ranks, plan.matrix_max_ranks,
                                    static_cast<std::uint64_t>(ranks) * static_cast<std::uint64_t>(ranks))};
  c.config = config;
  if (!with_matrix) c.config.erase("matrix");  // none, rather than a null a reader would refuse
  c.metrics = {{"links", static_cast<double>(links.size()), "links", "measured directions (ranks x (ranks - 1) with round-robin; fewer with another schedule)"},
               {"bandwidth_median", verdict.median_gbps, "GB/s", "the median link"},
               {"bandwidth_min", lo, "GB/s", "the slowest link"},
               {"bandwidth_max", hi, "GB/s", "the fastest link"},
               {"threshold", verdict.threshold, "x median", "links below threshold x median are flagged"},
               {"flagged", static_cast<double>(verdict.flagged.size()), "links",
                "links below the threshold (in both measurements, with confirm)"},
               {"cleared", static_cast<double>(verdict.cleared.size()), "links",
                "links below the threshold at first, above it when measured again alone"}};
  return c;
}

void attach_fleet_confirmation(std::vector<CaseResult>& links, const std::vector<FleetLink>& again_in) {
  // Sorted once, found by halving: a fleet of thousands of ranks has millions of links.
  std::vector<FleetLink> again = again_in;
  std::stable_sort(again.begin(), again.end(), fleet_link_order);
  for (CaseResult& c : links) {
    const auto [from, to] = fleet_link_of(c);
    auto at = std::lower_bound(again.begin(), again.end(), FleetLink(from, to, 0), fleet_link_order);
    // Measured again more than once (a group, then halves): the last figure is the one that decided.
    const FleetLink* last = nullptr;
    for (; at != again.end() && at->from == from && at->to == to; ++at) last = &*at;
    if (last == nullptr) continue;
    const auto known = std::find_if(c.metrics.begin(), c.metrics.end(),
                                    [](const Metric& m) { return m.name == "bandwidth_p50_again"; });
    if (known != c.metrics.end()) {
      known->value = last->gbps;
    } else {
      c.metrics.push_back({"bandwidth_p50_again", last->gbps, "GB/s",
                           "bandwidth_p50 of the link measured again, after it was first found slow (the last "
                           "time: alone where it stayed slow)"});
    }
  }
}

}  // namespace xb
