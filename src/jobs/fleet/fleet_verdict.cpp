#include "jobs/fleet/fleet_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/stats.hpp"

namespace xb {
namespace {

// "9.6", "0.05", "80000": four significant figures, never an exponent for a rate a link can have.
std::string gbps_text(double gbps) { return gbps >= 1000 ? fmt::format("{:.0f}", gbps) : fmt::format("{:.4g}", gbps); }

}  // namespace

bool fleet_link_slow(const FleetVerdict& v, const FleetLink& l, const FleetFloorFn& floor, std::string* why) {
  const double relative = v.threshold * v.median_gbps;
  if (l.gbps < relative) {
    if (why) *why = fmt::format("below {} x the median link ({} GB/s)", v.threshold, gbps_text(relative));
    return true;
  }
  if (const std::optional<double> f = floor ? floor(l.from, l.to) : std::nullopt; f && l.gbps < *f) {
    if (why) *why = fmt::format("below the floor ({} GB/s)", gbps_text(*f));
    return true;
  }
  return false;
}

FleetVerdict judge_fleet_links(const std::vector<FleetLink>& links, double threshold, const FleetFloorFn& floor) {
  FleetVerdict v;
  v.threshold = threshold;
  std::vector<double> rates;
  rates.reserve(links.size());
  for (const FleetLink& l : links) rates.push_back(l.gbps);
  v.median_gbps = summarize(rates).p50;
  for (const FleetLink& l : links) {
    FleetLink judged = l;
    if (fleet_link_slow(v, l, floor, &judged.why)) v.flagged.push_back(std::move(judged));
  }
  v.links = v.flagged;
  return v;
}

bool fleet_link_slow_again(const FleetVerdict& first, const FleetLink& l, const std::vector<FleetLink>& again,
                           const FleetFloorFn& floor) {
  const auto second = std::find_if(again.begin(), again.end(),
                                   [&](const FleetLink& a) { return a.from == l.from && a.to == l.to; });
  return second == again.end() || fleet_link_slow(first, *second, floor);
}

FleetVerdict confirm_fleet_verdict(const FleetVerdict& first, const std::vector<FleetLink>& again,
                                   const FleetFloorFn& floor) {
  FleetVerdict v = first;
  v.flagged.clear();
  for (const FleetLink& l : first.flagged) (fleet_link_slow_again(first, l, again, floor) ? v.flagged : v.cleared).push_back(l);
  v.links = v.flagged;
  return v;
}

void localise_fleet(FleetVerdict& v, int ranks, const std::vector<FleetLink>& measured) {
  v.nodes.clear();
  v.links.clear();
  v.every_link_slow = false;
  const auto is_flagged = [&](const FleetLink& l) {
    return std::any_of(v.flagged.begin(), v.flagged.end(), [&](const FleetLink& f) { return f.from == l.from && f.to == l.to; });
  };
  std::vector<FleetNode> candidates;
  for (int r = 0; r < ranks; ++r) {
    FleetNode n;
    n.rank = r;
    std::vector<double> rates;
    std::set<int> partners;
    for (const FleetLink& l : measured) {
      if (l.from != r && l.to != r) continue;
      ++n.links;
      rates.push_back(l.gbps);
      partners.insert(l.from == r ? l.to : l.from);
      if (is_flagged(l)) ++n.slow;
    }
    n.median_gbps = summarize(rates).p50;
    // One partner (two ranks, or a schedule that pairs each rank once) cannot tell which end is at
    // fault: the link is named, not a node.
    if (partners.size() >= 2 && n.slow == n.links) candidates.push_back(n);
  }
  if (!candidates.empty() && static_cast<int>(candidates.size()) == ranks) {
    v.every_link_slow = true;  // nothing stands out: the fleet, or its floor, is off as a whole
    v.links = v.flagged;
    return;
  }
  v.nodes = std::move(candidates);
  const auto on_named_node = [&](const FleetLink& l) {
    return std::any_of(v.nodes.begin(), v.nodes.end(), [&](const FleetNode& n) { return l.from == n.rank || l.to == n.rank; });
  };
  for (const FleetLink& l : v.flagged) {
    if (!on_named_node(l)) v.links.push_back(l);
  }
}

}  // namespace xb
