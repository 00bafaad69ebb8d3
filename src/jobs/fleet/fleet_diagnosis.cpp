#include "jobs/fleet/fleet_diagnosis.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace xb {
namespace {

std::uint64_t pair_key(const FleetPair& p) { return fleet_link_key(p.a, p.b); }

}  // namespace

std::vector<FleetStep> fleet_retest_steps(const FleetLinkSet& links, std::size_t max_pairs) {
  std::vector<FleetPair> list;
  list.reserve(links.size());
  for (const auto& [from, to] : links) list.push_back(fleet_pair(from, to));
  std::sort(list.begin(), list.end(), [](const FleetPair& x, const FleetPair& y) { return pair_key(x) < pair_key(y); });
  list.erase(std::unique(list.begin(), list.end()), list.end());
  return fleet_steps_of_pairs(list, max_pairs);
}

FleetDiagnosis::FleetDiagnosis(int ranks, double threshold, FleetFloorFn floor, std::size_t max_pairs)
    : ranks_(ranks), floor_(std::move(floor)), max_pairs_(max_pairs) {
  first_.threshold = threshold;
}

void FleetDiagnosis::first_pass(std::vector<FleetLink> links) {
  measured_ = std::move(links);
  first_ = judge_fleet_links(measured_, first_.threshold, floor_);
  state_.assign(first_.flagged.size(), State::pending);
  every_link_flagged_ = !measured_.empty() && first_.flagged.size() == measured_.size();
  of_pair_.clear();
  // The suspect pairs in the order their first link was flagged: both directions of a pair are
  // measured together, so they stay in one group.
  std::vector<FleetPair> suspects;
  for (std::size_t i = 0; i < first_.flagged.size(); ++i) {
    const FleetPair p = fleet_pair(first_.flagged[i].from, first_.flagged[i].to);
    std::vector<std::size_t>& links_of_pair = of_pair_[pair_key(p)];
    if (links_of_pair.empty()) suspects.push_back(p);
    links_of_pair.push_back(i);
  }
  pending_.clear();
  again_.clear();
  nodes_.clear();
  // Suspect nodes: every link flagged (so its partners are all among the suspect pairs), more partners
  // than probes (one met by fewer is measured whole); none when every link is flagged: nothing stands
  // out, and the first retest confirms.
  const FleetRankTally tally = fleet_rank_tally(ranks_, measured_, first_.flagged);
  const auto suspect_node = [&](int r) {
    return !every_link_flagged_ && tally.every_link_slow(r) && tally.partners[static_cast<std::size_t>(r)] > kFleetNodeProbes;
  };
  std::vector<FleetPair> measured_now;
  for (const FleetPair& p : suspects) {
    const bool a = suspect_node(p.a), b = suspect_node(p.b);
    if (a == b) {  // neither end suspect, or both (two bad nodes paired: neither stands for the other)
      measured_now.push_back(p);
      continue;
    }
    NodeProbes& node = nodes_[a ? p.a : p.b];
    if (node.probes.size() < kFleetNodeProbes) {
      node.probes.push_back(p);
      measured_now.push_back(p);
    } else {
      node.held.push_back(p);
    }
  }
  if (!measured_now.empty()) pending_.push_back(std::move(measured_now));
}

void FleetDiagnosis::settle_held_pairs() {
  for (auto& [rank, node] : nodes_) {
    if (node.held.empty()) continue;
    bool settled = true, all_slow = true;
    for (const FleetPair& p : node.probes) {
      for (const std::size_t i : of_pair_.at(pair_key(p))) {
        settled = settled && state_[i] != State::pending;
        all_slow = all_slow && state_[i] == State::confirmed;
      }
    }
    if (!settled) continue;
    if (all_slow) {
      // Confirmed with its probes: the node is slow whoever its partner is.
      for (const FleetPair& p : node.held) {
        for (const std::size_t i : of_pair_.at(pair_key(p))) state_[i] = State::confirmed;
      }
    } else {
      pending_.push_back(node.held);  // a probe cleared: the node's other pairs speak for themselves
    }
    node.held.clear();
  }
}

FleetLinkSet FleetDiagnosis::next_group() {
  current_.clear();
  alone_.clear();
  if (pending_.empty()) return {};
  current_ = std::move(pending_.front());
  pending_.pop_front();
  FleetLinkSet wanted;
  for (const FleetPair& p : current_) {
    for (const std::size_t i : of_pair_.at(pair_key(p))) {
      if (state_[i] == State::pending) wanted.insert({first_.flagged[i].from, first_.flagged[i].to});
    }
  }
  // The pairs that run alone in their step, as the caller will run them (fleet_retest_steps).
  for (const FleetStep& step : fleet_retest_steps(wanted, max_pairs_)) {
    if (step.size() == 1) alone_.insert(pair_key(step.front()));
  }
  return wanted;
}

void FleetDiagnosis::measured_again(const std::vector<FleetLink>& again_in) {
  ++retests_;
  again_.insert(again_.end(), again_in.begin(), again_in.end());
  std::vector<FleetLink> again = again_in;
  std::sort(again.begin(), again.end(), fleet_link_order);
  std::vector<FleetPair> still_slow;
  for (const FleetPair& p : current_) {
    bool slow = false;
    for (const std::size_t i : of_pair_.at(pair_key(p))) {
      if (state_[i] != State::pending) continue;
      if (!fleet_link_slow_again(first_, first_.flagged[i], again, floor_)) {
        state_[i] = State::cleared;
      } else if (current_.size() == 1 || every_link_flagged_ || alone_.count(pair_key(p)) > 0) {
        state_[i] = State::confirmed;  // slow when its pair ran alone: named
      } else {
        slow = true;
      }
    }
    if (slow) still_slow.push_back(p);
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
  alone_.clear();
  settle_held_pairs();
}

void FleetDiagnosis::skip_confirmation() {
  pending_.clear();
  std::fill(state_.begin(), state_.end(), State::confirmed);
}

FleetVerdict FleetDiagnosis::verdict() const {
  FleetVerdict v = first_;
  v.flagged.clear();
  v.cleared.clear();
  for (std::size_t i = 0; i < first_.flagged.size(); ++i) {
    // A suspect never settled (the caller stopped early) stays flagged: nothing cleared it.
    (state_[i] == State::cleared ? v.cleared : v.flagged).push_back(first_.flagged[i]);
  }
  v.retests = retests_;
  localise_fleet(v, ranks_, measured_);
  return v;
}

std::vector<FleetLink> FleetDiagnosis::shown() && {
  if (!std::is_sorted(measured_.begin(), measured_.end(), fleet_link_order)) {
    std::sort(measured_.begin(), measured_.end(), fleet_link_order);
  }
  fleet_show_again(measured_, again_);
  return std::move(measured_);
}

std::size_t FleetDiagnosis::bytes_held() const {
  std::size_t bytes = sizeof(*this);
  bytes += (measured_.capacity() + again_.capacity()) * sizeof(FleetLink);
  bytes += (first_.flagged.capacity() + first_.links.capacity()) * sizeof(FleetLink);
  bytes += state_.capacity() * sizeof(State);
  // A node of the hash map: the key, the vector and its indices, the bucket's pointer.
  for (const auto& [key, links] : of_pair_) bytes += sizeof(key) + sizeof(links) + 2 * sizeof(void*) + links.capacity() * sizeof(std::size_t);
  bytes += of_pair_.bucket_count() * sizeof(void*);
  for (const auto& group : pending_) bytes += group.capacity() * sizeof(FleetPair);
  for (const auto& [rank, node] : nodes_) {
    bytes += sizeof(rank) + sizeof(node) + 2 * sizeof(void*) + (node.probes.capacity() + node.held.capacity()) * sizeof(FleetPair);
  }
  bytes += current_.capacity() * sizeof(FleetPair);
  bytes += alone_.size() * (sizeof(std::uint64_t) + 2 * sizeof(void*)) + alone_.bucket_count() * sizeof(void*);
  return bytes;
}

}  // namespace xb
