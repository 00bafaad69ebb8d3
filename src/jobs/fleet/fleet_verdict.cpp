#include "jobs/fleet/fleet_verdict.hpp"

#include <algorithm>

#include "core/stats.hpp"

namespace xb {

FleetVerdict judge_fleet_links(const std::vector<FleetLink>& links, double threshold) {
  FleetVerdict v;
  v.threshold = threshold;
  std::vector<double> rates;
  rates.reserve(links.size());
  for (const FleetLink& l : links) rates.push_back(l.gbps);
  v.median_gbps = summarize(rates).p50;
  for (const FleetLink& l : links) {
    if (l.gbps < threshold * v.median_gbps) v.flagged.push_back(l);
  }
  return v;
}

FleetVerdict confirm_fleet_verdict(const FleetVerdict& first, const std::vector<FleetLink>& again) {
  FleetVerdict v = first;
  v.flagged.clear();
  for (const FleetLink& l : first.flagged) {
    const auto second = std::find_if(again.begin(), again.end(),
                                     [&](const FleetLink& a) { return a.from == l.from && a.to == l.to; });
    const bool slow_again = second == again.end() || second->gbps < first.threshold * first.median_gbps;
    (slow_again ? v.flagged : v.cleared).push_back(l);
  }
  return v;
}

}  // namespace xb
