#include "jobs/fleet/fleet_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace xb {

std::vector<FleetStep> fleet_rounds(int ranks) {
  if (ranks < 2) throw std::invalid_argument(fmt::format("a fleet needs 2 ranks at least, not {}", ranks));
  // The circle method: seat n (even) players at positions 0..n-1, keep position 0 fixed and turn the
  // others one place per round; position i plays position n-1-i. With an odd count a phantom
  // player (n - 1 here) makes the count even and whoever meets it sits the round out.
  const int n = ranks % 2 == 0 ? ranks : ranks + 1;
  std::vector<int> seat(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) seat[static_cast<std::size_t>(i)] = i;
  std::vector<FleetStep> rounds;
  for (int r = 0; r < n - 1; ++r) {
    FleetStep round;
    for (int i = 0; i < n / 2; ++i) {
      const int x = seat[static_cast<std::size_t>(i)];
      const int y = seat[static_cast<std::size_t>(n - 1 - i)];
      if (x >= ranks || y >= ranks) continue;  // the bye
      round.push_back({std::min(x, y), std::max(x, y)});
    }
    std::sort(round.begin(), round.end(), [](const FleetPair& p, const FleetPair& q) { return p.a < q.a; });
    rounds.push_back(std::move(round));
    std::rotate(seat.begin() + 1, seat.end() - 1, seat.end());
  }
  return rounds;
}

std::vector<FleetStep> fleet_steps(int ranks, std::size_t max_pairs) {
  std::vector<FleetStep> steps;
  for (const FleetStep& round : fleet_rounds(ranks)) {
    const std::size_t cap = max_pairs == 0 ? round.size() : max_pairs;
    for (std::size_t at = 0; at < round.size(); at += cap) {
      const auto end = round.begin() + static_cast<std::ptrdiff_t>(std::min(round.size(), at + cap));
      steps.emplace_back(round.begin() + static_cast<std::ptrdiff_t>(at), end);
    }
  }
  return steps;
}

std::vector<FleetStep> fleet_steps_of_pairs(const std::vector<FleetPair>& pairs, std::size_t max_pairs) {
  std::vector<FleetStep> steps;
  for (const FleetPair& p : pairs) {
    const auto fits = [&](const FleetStep& s) {
      return (max_pairs == 0 || s.size() < max_pairs) && fleet_partner(s, p.a) < 0 && fleet_partner(s, p.b) < 0;
    };
    const auto at = std::find_if(steps.begin(), steps.end(), fits);
    if (at != steps.end()) at->push_back(p);
    else steps.push_back({p});
  }
  return steps;
}

int fleet_partner(const FleetStep& step, int rank) {
  for (const FleetPair& p : step) {
    if (p.a == rank) return p.b;
    if (p.b == rank) return p.a;
  }
  return -1;
}

}  // namespace xb
