#include "jobs/fleet/fleet_schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"

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
  return fleet_split_rounds(fleet_rounds(ranks), max_pairs);
}

std::vector<FleetStep> fleet_split_rounds(const std::vector<FleetStep>& rounds, std::size_t max_pairs) {
  std::vector<FleetStep> steps;
  for (const FleetStep& round : rounds) {
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

namespace {

// Half against half over `order` (ranks in the order they are paired).
std::vector<FleetStep> half_against_half(const std::vector<int>& order) {
  const std::size_t n = order.size();
  if (n < 2) throw std::invalid_argument(fmt::format("a fleet needs 2 ranks at least, not {}", n));
  const std::size_t half = n / 2;
  FleetStep round;
  for (std::size_t i = 0; i < half; ++i) {
    round.push_back({std::min(order[i], order[i + half]), std::max(order[i], order[i + half])});
  }
  std::vector<FleetStep> rounds{round};
  if (n % 2 == 1) {
    const int left = order[n - 1], first = order[0];
    rounds.push_back({{std::min(left, first), std::max(left, first)}});
  }
  return rounds;
}

std::vector<std::string> significant_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// "12" → 12; nullopt for anything else.
std::optional<int> rank_number(std::string_view text) {
  int v = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || v < 0 || text.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::vector<FleetStep> fleet_quick_rounds(int ranks) {
  if (ranks < 2) throw std::invalid_argument(fmt::format("a fleet needs 2 ranks at least, not {}", ranks));
  std::vector<int> order(static_cast<std::size_t>(ranks));
  std::iota(order.begin(), order.end(), 0);
  return half_against_half(order);
}

std::vector<FleetStep> fleet_topology_rounds(const std::vector<std::string>& locations) {
  std::vector<int> order(locations.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return locations[static_cast<std::size_t>(a)] < locations[static_cast<std::size_t>(b)];
  });
  return half_against_half(order);
}

std::vector<FleetStep> parse_fleet_rounds(std::string_view text, const std::string& name) {
  std::vector<FleetStep> rounds;
  const auto lines = significant_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto words = words_of(lines[i]);
    if (words.empty()) continue;
    FleetStep round;
    for (const std::string& w : words) {
      const auto dash = w.find('-');
      const auto a = dash == std::string::npos ? std::nullopt : rank_number(std::string_view(w).substr(0, dash));
      const auto b = dash == std::string::npos ? std::nullopt : rank_number(std::string_view(w).substr(dash + 1));
      if (!a || !b) throw UsageError(fmt::format("{}:{}: '{}' is not a pair of ranks A-B (a round is pairs \"0-1 2-3\")", name, i + 1, w));
      if (*a == *b) throw UsageError(fmt::format("{}:{}: '{}' pairs rank {} with itself", name, i + 1, w, *a));
      round.push_back({std::min(*a, *b), std::max(*a, *b)});
    }
    rounds.push_back(std::move(round));
  }
  if (rounds.empty()) throw UsageError(fmt::format("{}: no round in it (one round per line: \"0-1 2-3\")", name));
  return rounds;
}

void check_fleet_rounds(const std::vector<FleetStep>& rounds, int ranks, const std::string& name) {
  std::set<std::pair<int, int>> met;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    std::set<int> busy;
    for (const FleetPair& p : rounds[r]) {
      for (int rank : {p.a, p.b}) {
        if (rank >= ranks) {
          throw UsageError(fmt::format("{}: round {} names rank {}, but the fleet has {} ranks (0 to {})", name, r + 1, rank,
                                       ranks, ranks - 1));
        }
        if (!busy.insert(rank).second) throw UsageError(fmt::format("{}: round {} has rank {} twice", name, r + 1, rank));
      }
      if (!met.insert({p.a, p.b}).second) {
        throw UsageError(fmt::format("{}: round {} measures {}-{} again (each pair once)", name, r + 1, p.a, p.b));
      }
    }
  }
}

std::map<std::string, std::string> parse_fleet_locations(std::string_view text, const std::string& name) {
  std::map<std::string, std::string> locations;
  const auto lines = significant_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto words = words_of(lines[i]);
    if (words.empty()) continue;
    if (words.size() != 2) {
      throw UsageError(fmt::format("{}:{}: expected HOST LOCATION (\"node-a rack1/sw3\"), got {} words", name, i + 1, words.size()));
    }
    if (!locations.emplace(words[0], words[1]).second) {
      throw UsageError(fmt::format("{}:{}: host {} is given twice", name, i + 1, words[0]));
    }
  }
  return locations;
}

int fleet_partner(const FleetStep& step, int rank) {
  for (const FleetPair& p : step) {
    if (p.a == rank) return p.b;
    if (p.b == rank) return p.a;
  }
  return -1;
}

}  // namespace xb
