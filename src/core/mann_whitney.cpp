// The U statistic from average ranks; the exact null distribution of the first sample's rank sum
// by counting which n1 of the n ranked positions it may take (ties keep their average ranks, so
// the distribution is the one conditional on the ties, exact with or without them); the normal
// approximation beyond kMannWhitneyExactMax, with the variance reduced for ties.
#include "core/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace xb {
namespace {

// P(rank sum of a random n1-subset = s) for s in doubled units (ranks are halves under ties): a
// knapsack over the n positions, counts kept as probabilities of each subset size.
std::vector<double> rank_sum_distribution(const std::vector<long>& doubled_ranks, std::size_t n1) {
  long total = 0;
  for (const long r : doubled_ranks) total += r;
  // ways[k][s]: subsets of size k with doubled sum s, as a share of C(i, k) after i positions.
  std::vector<std::vector<double>> ways(n1 + 1, std::vector<double>(static_cast<std::size_t>(total) + 1, 0.0));
  ways[0][0] = 1.0;
  std::size_t seen = 0;
  for (const long r : doubled_ranks) {
    ++seen;
    // Taking position `seen` into a subset of size k: share k/seen of the subsets of size k hold it.
    for (std::size_t k = std::min(n1, seen); k >= 1; --k) {
      const double take = static_cast<double>(k) / static_cast<double>(seen);
      for (long s = total; s >= r; --s) {
        ways[k][static_cast<std::size_t>(s)] =
            (1 - take) * ways[k][static_cast<std::size_t>(s)] + take * ways[k - 1][static_cast<std::size_t>(s - r)];
      }
      for (long s = std::min(r - 1, total); s >= 0; --s) ways[k][static_cast<std::size_t>(s)] *= (1 - take);
    }
  }
  return ways[n1];
}

}  // namespace

MannWhitney mann_whitney(std::span<const double> a, std::span<const double> b) {
  MannWhitney r;
  const std::size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
  if (n1 == 0 || n2 == 0) return r;
  // Rank the pooled values (average ranks over ties), keeping which sample each came from.
  std::vector<std::pair<double, bool>> pooled;
  pooled.reserve(n);
  for (const double v : a) pooled.emplace_back(v, true);
  for (const double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<long> doubled_ranks;  // 2 × rank: whole numbers even for the halves ties give
  doubled_ranks.reserve(n);
  long doubled_sum_a = 0;
  double tie_term = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const long doubled = static_cast<long>(i + 1 + j);  // ranks i+1 … j average (i+1+j)/2
    for (std::size_t k = i; k < j; ++k) {
      doubled_ranks.push_back(doubled);
      if (pooled[k].second) doubled_sum_a += doubled;
    }
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const double dn1 = static_cast<double>(n1), dn2 = static_cast<double>(n2), dn = static_cast<double>(n);
  r.u = static_cast<double>(doubled_sum_a) / 2 - dn1 * (dn1 + 1) / 2;
  const double mean = dn1 * dn2 / 2;
  if (n <= kMannWhitneyExactMax) {
    // Two-sided: every subset whose rank sum is as far from the mean as the observed one, or farther.
    const std::vector<double> dist = rank_sum_distribution(doubled_ranks, n1);
    const double doubled_mean = dn1 * (dn + 1);  // 2 × n1(n+1)/2
    const double observed = std::abs(static_cast<double>(doubled_sum_a) - doubled_mean);
    double p = 0;
    for (std::size_t s = 0; s < dist.size(); ++s) {
      if (std::abs(static_cast<double>(s) - doubled_mean) >= observed - 1e-9) p += dist[s];
    }
    r.p_value = std::min(1.0, p);
    r.exact = true;
    return r;
  }
  const double variance = dn1 * dn2 / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (variance <= 0) return r;  // every value equal: no evidence of any difference
  const double z = std::max(0.0, std::abs(r.u - mean) - 0.5) / std::sqrt(variance);
  r.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return r;
}

double mann_whitney_smallest_p(std::size_t n1, std::size_t n2) {
  // 2 / C(n1 + n2, n1): the two most extreme arrangements (no ties), as a product to stay finite.
  if (n1 == 0 || n2 == 0) return 1.0;
  double c = 1;
  for (std::size_t i = 1; i <= n1; ++i) c = c * static_cast<double>(n2 + i) / static_cast<double>(i);
  return std::min(1.0, 2 / c);
}

}  // namespace xb
