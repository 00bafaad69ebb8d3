#include "jobs/fleet/fleet_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "core/stats.hpp"

namespace xb {
namespace {

// "9.6", "0.05", "80000": four significant figures, never an exponent for a rate a link can have.
std::string fleet_gbps_text(double gbps) { return gbps >= 1000 ? fmt::format("{:.0f}", gbps) : fmt::format("{:.4g}", gbps); }

}  // namespace

void fleet_show_again(std::vector<FleetLink>& shown, const std::vector<FleetLink>& again) {
  for (const FleetLink& a : again) {
    const auto at = std::lower_bound(shown.begin(), shown.end(), a, fleet_link_order);
    if (at != shown.end() && at->from == a.from && at->to == a.to) at->gbps = a.gbps;
  }
}

std::string fleet_slow_why(const FleetLink& l, double threshold) {
  switch (l.slow_by) {
    case FleetSlowBy::median:
      return fmt::format("below {} x the median link ({} GB/s)", threshold, fleet_gbps_text(l.limit_gbps));
    case FleetSlowBy::floor:
      return fmt::format("below the floor ({} GB/s)", fleet_gbps_text(l.limit_gbps));
    case FleetSlowBy::none:
      break;
  }
  return "";
}

FleetFloorFn fleet_floor_of(std::optional<double> gbps, std::optional<double> share, std::vector<std::string> nic_gbps) {
  return [gbps, share, nics = std::move(nic_gbps)](int from, int to) -> std::optional<double> {
    if (gbps) return gbps;
    const std::string& a = nics.at(static_cast<std::size_t>(from));
    const std::string& b = nics.at(static_cast<std::size_t>(to));
    if (!share || a.empty() || b.empty()) return std::nullopt;
    return *share * std::min(std::stod(a), std::stod(b));
  };
}

FleetSlowBy fleet_link_slow(const FleetVerdict& v, const FleetLink& l, const FleetFloorFn& floor, float* limit) {
  const double relative = v.threshold * v.median_gbps;
  if (l.gbps < relative) {
    if (limit) *limit = static_cast<float>(relative);
    return FleetSlowBy::median;
  }
  if (const std::optional<double> f = floor ? floor(l.from, l.to) : std::nullopt; f && l.gbps < *f) {
    if (limit) *limit = static_cast<float>(*f);
    return FleetSlowBy::floor;
  }
  return FleetSlowBy::none;
}

FleetVerdict judge_fleet_links(const std::vector<FleetLink>& links, double threshold, const FleetFloorFn& floor) {
  FleetVerdict v;
  v.threshold = threshold;
  std::vector<double> rates(links.size());
  std::ranges::transform(links, rates.begin(), &FleetLink::gbps);
  v.median_gbps = summarize(rates).p50;
  for (const FleetLink& l : links) {
    FleetLink judged = l;
    judged.slow_by = fleet_link_slow(v, l, floor, &judged.limit_gbps);
    if (judged.slow_by != FleetSlowBy::none) v.flagged.push_back(judged);
  }
  v.links = v.flagged;
  return v;
}

bool fleet_link_slow_again(const FleetVerdict& first, const FleetLink& l, const std::vector<FleetLink>& again,
                           const FleetFloorFn& floor) {
  const auto second = std::lower_bound(again.begin(), again.end(), l, fleet_link_order);
  const bool measured = second != again.end() && second->from == l.from && second->to == l.to;
  return !measured || fleet_link_slow(first, *second, floor) != FleetSlowBy::none;
}

FleetVerdict confirm_fleet_verdict(const FleetVerdict& first, const std::vector<FleetLink>& again_in,
                                   const FleetFloorFn& floor) {
  std::vector<FleetLink> again = again_in;
  std::sort(again.begin(), again.end(), fleet_link_order);
  FleetVerdict v = first;
  v.flagged.clear();
  for (const FleetLink& l : first.flagged) (fleet_link_slow_again(first, l, again, floor) ? v.flagged : v.cleared).push_back(l);
  v.links = v.flagged;
  return v;
}

bool FleetRankTally::every_link_slow(int r) const {
  const auto i = static_cast<std::size_t>(r);
  return r >= 0 && i < links.size() && partners[i] >= 2 && slow[i] == links[i];
}

FleetRankTally fleet_rank_tally(int ranks, const std::vector<FleetLink>& measured, const std::vector<FleetLink>& flagged_links) {
  std::unordered_set<std::uint64_t> flagged;
  for (const FleetLink& f : flagged_links) flagged.insert(fleet_link_key(f.from, f.to));
  const auto rank_ok = [&](int r) { return r >= 0 && r < ranks; };
  const auto n = static_cast<std::size_t>(std::max(ranks, 0));
  FleetRankTally t{std::vector<std::size_t>(n), std::vector<std::size_t>(n), std::vector<std::size_t>(n)};
  std::vector<std::uint64_t> pairs;
  pairs.reserve(measured.size());
  for (const FleetLink& l : measured) {
    if (!rank_ok(l.from) || !rank_ok(l.to)) continue;
    const bool is_slow = flagged.count(fleet_link_key(l.from, l.to)) > 0;
    for (const int r : {l.from, l.to}) {
      ++t.links[static_cast<std::size_t>(r)];
      if (is_slow) ++t.slow[static_cast<std::size_t>(r)];
    }
    pairs.push_back(fleet_link_key(std::min(l.from, l.to), std::max(l.from, l.to)));
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const std::uint64_t p : pairs) {
    ++t.partners[p >> 32];
    ++t.partners[p & 0xffffffffu];
  }
  return t;
}

void localise_fleet(FleetVerdict& v, int ranks, const std::vector<FleetLink>& measured) {
  v.nodes.clear();
  v.links.clear();
  v.every_link_slow = false;
  const auto rank_ok = [&](int r) { return r >= 0 && r < ranks; };
  const FleetRankTally tally = fleet_rank_tally(ranks, measured, v.flagged);
  std::vector<int> candidates;
  for (int r = 0; r < ranks; ++r) {
    if (tally.every_link_slow(r)) candidates.push_back(r);
  }
  if (!candidates.empty() && static_cast<int>(candidates.size()) == ranks) {
    v.every_link_slow = true;  // nothing stands out: the fleet, or its floor, is off as a whole
    v.links = v.flagged;
    return;
  }
  // The median of each named node's links: a second pass, over the named nodes' links only.
  std::vector<int> slot(static_cast<std::size_t>(ranks), -1);
  for (std::size_t k = 0; k < candidates.size(); ++k) slot[static_cast<std::size_t>(candidates[k])] = static_cast<int>(k);
  std::vector<std::vector<double>> rates(candidates.size());
  for (const FleetLink& l : measured) {
    if (!rank_ok(l.from) || !rank_ok(l.to)) continue;
    for (const int r : {l.from, l.to}) {
      if (const int k = slot[static_cast<std::size_t>(r)]; k >= 0) rates[static_cast<std::size_t>(k)].push_back(l.gbps);
    }
  }
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const auto i = static_cast<std::size_t>(candidates[k]);
    v.nodes.push_back({candidates[k], tally.slow[i], tally.links[i], summarize(rates[k]).p50});
  }
  for (const FleetLink& l : v.flagged) {
    const bool on_named_node = (rank_ok(l.from) && slot[static_cast<std::size_t>(l.from)] >= 0) ||
                               (rank_ok(l.to) && slot[static_cast<std::size_t>(l.to)] >= 0);
    if (!on_named_node) v.links.push_back(l);
  }
}

}  // namespace xb
