#include "jobs/fleet/fleet_diagnosis.hpp"

#include <algorithm>

namespace xb {
namespace {

FleetPair pair_of(int from, int to) { return {std::min(from, to), std::max(from, to)}; }

bool in_pairs(const std::vector<FleetPair>& pairs, int from, int to) {
  return std::find(pairs.begin(), pairs.end(), pair_of(from, to)) != pairs.end();
}

}  // namespace

FleetDiagnosis::FleetDiagnosis(int ranks, double threshold, FleetFloorFn floor) : ranks_(ranks), floor_(std::move(floor)) {
  first_.threshold = threshold;
}

void FleetDiagnosis::first_pass(std::vector<FleetLink> links) {
  measured_ = std::move(links);
  first_ = judge_fleet_links(measured_, first_.threshold, floor_);
  std::vector<FleetPair> suspects;
  for (const FleetLink& l : first_.flagged) {
    if (!in_pairs(suspects, l.from, l.to)) suspects.push_back(pair_of(l.from, l.to));
  }
  pending_.clear();
  if (!suspects.empty()) pending_.push_back(std::move(suspects));
}

FleetLinkSet FleetDiagnosis::next_group() {
  current_.clear();
  if (pending_.empty()) return {};
  current_ = std::move(pending_.front());
  pending_.pop_front();
  FleetLinkSet wanted;
  for (const FleetLink& l : first_.flagged) {
    if (in_pairs(current_, l.from, l.to) && !confirmed_.count({l.from, l.to}) && !cleared_.count({l.from, l.to})) {
      wanted.insert({l.from, l.to});
    }
  }
  return wanted;
}

void FleetDiagnosis::measured_again(const std::vector<FleetLink>& again) {
  ++retests_;
  std::vector<FleetPair> still_slow;
  for (const FleetLink& l : first_.flagged) {
    if (!in_pairs(current_, l.from, l.to) || confirmed_.count({l.from, l.to}) || cleared_.count({l.from, l.to})) continue;
    if (!fleet_link_slow_again(first_, l, again, floor_)) {
      cleared_.insert({l.from, l.to});
    } else if (current_.size() == 1) {
      confirmed_.insert({l.from, l.to});  // slow when its pair ran alone: named
    } else if (!in_pairs(still_slow, l.from, l.to)) {
      still_slow.push_back(pair_of(l.from, l.to));
    }
  }
  // Halve what is still slow: a pair alone is the last word.
  if (still_slow.size() == 1) {
    pending_.push_front(still_slow);
  } else if (!still_slow.empty()) {
    const auto middle = still_slow.begin() + static_cast<std::ptrdiff_t>(still_slow.size() / 2);
    pending_.push_front(std::vector<FleetPair>(middle, still_slow.end()));
    pending_.push_front(std::vector<FleetPair>(still_slow.begin(), middle));
  }
  current_.clear();
}

void FleetDiagnosis::skip_confirmation() {
  pending_.clear();
  for (const FleetLink& l : first_.flagged) confirmed_.insert({l.from, l.to});
}

FleetVerdict FleetDiagnosis::verdict() const {
  FleetVerdict v = first_;
  v.flagged.clear();
  v.cleared.clear();
  for (const FleetLink& l : first_.flagged) {
    // A suspect never settled (the caller stopped early) stays flagged: nothing cleared it.
    (cleared_.count({l.from, l.to}) ? v.cleared : v.flagged).push_back(l);
  }
  v.retests = retests_;
  localise_fleet(v, ranks_, measured_);
  return v;
}

}  // namespace xb
