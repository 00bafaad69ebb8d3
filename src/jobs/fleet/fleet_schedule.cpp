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

int fleet_round_count(int ranks) {
  if (ranks < 2) throw std::invalid_argument(fmt::format("a fleet needs 2 ranks at least, not {}", ranks));
  return ranks % 2 == 0 ? ranks - 1 : ranks;
}

FleetStep fleet_round(int ranks, int round) {
  const int rounds = fleet_round_count(ranks);
  if (round < 0 || round >= rounds) throw std::invalid_argument(fmt::format("round {} of a {}-round tournament", round, rounds));
  // The circle method: seat n (even) players at positions 0..n-1, keep position 0 fixed and turn the
  // others one place per round; position i plays position n-1-i. An odd count gets a phantom player
  // (n - 1), whose partner sits the round out. After `round` turns, position i >= 1 holds player
  // 1 + (i - 1 - round) mod (n - 1): one round is made without the ones before it.
  const int n = ranks % 2 == 0 ? ranks : ranks + 1;
  const auto seat = [&](int i) { return i == 0 ? 0 : 1 + (((i - 1 - round) % (n - 1)) + (n - 1)) % (n - 1); };
  FleetStep pairs;
  pairs.reserve(static_cast<std::size_t>(n / 2));
  for (int i = 0; i < n / 2; ++i) {
    const int x = seat(i);
    const int y = seat(n - 1 - i);
    if (x >= ranks || y >= ranks) continue;  // the bye
    pairs.push_back(fleet_pair(x, y));
  }
  std::sort(pairs.begin(), pairs.end(), [](const FleetPair& p, const FleetPair& q) { return p.a < q.a; });
  return pairs;
}

std::vector<FleetStep> fleet_rounds(int ranks) {
  std::vector<FleetStep> rounds;
  for (int r = 0; r < fleet_round_count(ranks); ++r) rounds.push_back(fleet_round(ranks, r));
  return rounds;
}

FleetRoundList FleetRoundList::tournament(int ranks) {
  FleetRoundList list;
  list.count_ = static_cast<std::size_t>(fleet_round_count(ranks));
  list.tournament_ranks_ = ranks;
  return list;
}

FleetRoundList::FleetRoundList(std::vector<FleetStep> rounds) : count_(rounds.size()), held_(std::move(rounds)) {}

std::vector<FleetStep> FleetRoundList::steps_of_round(std::size_t i, std::size_t max_pairs) const {
  return fleet_split_rounds({tournament_ranks_ > 0 ? fleet_round(tournament_ranks_, static_cast<int>(i)) : held_.at(i)},
                            max_pairs);
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
  int ranks = 0;
  for (const FleetPair& p : pairs) ranks = std::max({ranks, p.a + 1, p.b + 1});
  std::vector<FleetStep> steps;
  std::vector<std::vector<bool>> busy;  // per step, per rank: in a pair of that step already
  // First fit, without rescanning what cannot fit: every step below free_from[r] holds rank r, and
  // every step below open_from is full. (A fleet's suspects can be 500,000 pairs.)
  std::vector<std::size_t> free_from(static_cast<std::size_t>(ranks), 0);
  std::size_t open_from = 0;
  const auto full = [&](std::size_t at) { return max_pairs != 0 && steps[at].size() >= max_pairs; };
  for (const FleetPair& p : pairs) {
    const auto a = static_cast<std::size_t>(p.a), b = static_cast<std::size_t>(p.b);
    std::size_t at = std::max({free_from[a], free_from[b], open_from});
    while (at < steps.size() && (full(at) || busy[at][a] || busy[at][b])) ++at;
    if (at == steps.size()) {
      steps.emplace_back();
      busy.emplace_back(static_cast<std::size_t>(ranks), false);
    }
    steps[at].push_back(p);
    busy[at][a] = busy[at][b] = true;
    for (const std::size_t r : {a, b}) {
      while (free_from[r] < steps.size() && busy[free_from[r]][r]) ++free_from[r];
    }
    while (open_from < steps.size() && full(open_from)) ++open_from;
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
    round.push_back(fleet_pair(order[i], order[i + half]));
  }
  std::vector<FleetStep> rounds{round};
  if (n % 2 == 1) rounds.push_back({fleet_pair(order[n - 1], order[0])});
  return rounds;
}

// The words of each line, a '#' and what follows it left out.
std::vector<std::vector<std::string>> words_by_line(std::string_view text) {
  std::vector<std::vector<std::string>> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line.substr(0, line.find('#')));
    std::vector<std::string>& out = lines.emplace_back();
    for (std::string w; words >> w;) out.push_back(w);
  }
  return lines;
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
  const auto lines = words_by_line(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    FleetStep round;
    for (const std::string& w : lines[i]) {
      const auto dash = w.find('-');
      const auto a = dash == std::string::npos ? std::nullopt : rank_number(std::string_view(w).substr(0, dash));
      const auto b = dash == std::string::npos ? std::nullopt : rank_number(std::string_view(w).substr(dash + 1));
      if (!a || !b) throw UsageError(fmt::format("{}:{}: '{}' is not a pair of ranks A-B (a round is pairs \"0-1 2-3\")", name, i + 1, w));
      if (*a == *b) throw UsageError(fmt::format("{}:{}: '{}' pairs rank {} with itself", name, i + 1, w, *a));
      round.push_back(fleet_pair(*a, *b));
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
  const auto lines = words_by_line(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& words = lines[i];
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
