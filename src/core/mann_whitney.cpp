// The U statistic from average ranks; the exact null distribution by counting arrangements (the
// number of ways n1 values out of n1 + n2 ranked positions give each U, built up one position at a
// time); the normal approximation beyond, with the variance reduced for ties.
#include "core/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace xb {
namespace {

// counts[u]: arrangements of n1 "a" and n2 "b" values whose U (a above b pairs) is u, over all
// C(n1 + n2, n1) arrangements, as probabilities.
std::vector<double> exact_distribution(std::size_t n1, std::size_t n2) {
  // f[i][j] holds the distribution for i a's and j b's; adding the largest value as an "a" raises U
  // by j (it is above every b), as a "b" raises it by nothing.
  std::vector<std::vector<std::vector<double>>> f(n1 + 1, std::vector<std::vector<double>>(n2 + 1));
  for (std::size_t i = 0; i <= n1; ++i) {
    for (std::size_t j = 0; j <= n2; ++j) {
      std::vector<double>& d = f[i][j];
      d.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        d[0] = 1.0;
        continue;
      }
      // P(largest is an a) = i / (i + j).
      const double pa = static_cast<double>(i) / static_cast<double>(i + j);
      const auto& with_a = f[i - 1][j];
      const auto& with_b = f[i][j - 1];
      for (std::size_t u = 0; u < with_a.size(); ++u) d[u + j] += pa * with_a[u];
      for (std::size_t u = 0; u < with_b.size(); ++u) d[u] += (1 - pa) * with_b[u];
    }
  }
  return f[n1][n2];
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
  double rank_sum_a = 0, tie_term = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double average_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;  // ranks i+1 … j
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_a += average_rank;
    }
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const double dn1 = static_cast<double>(n1), dn2 = static_cast<double>(n2);
  r.u = rank_sum_a - dn1 * (dn1 + 1) / 2;
  const double mean = dn1 * dn2 / 2;
  if (tie_term == 0 && n <= kMannWhitneyExactMax) {
    const std::vector<double> dist = exact_distribution(n1, n2);
    // Two-sided: twice the tail on the side U falls, U being an integer here.
    const auto u = static_cast<std::size_t>(std::llround(std::min(r.u, dn1 * dn2 - r.u)));
    double tail = 0;
    for (std::size_t k = 0; k <= u; ++k) tail += dist[k];
    r.p_value = std::min(1.0, 2 * tail);
    r.exact = true;
    return r;
  }
  const double dn = static_cast<double>(n);
  const double variance = dn1 * dn2 / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (variance <= 0) return r;  // every value equal: no evidence of any difference
  const double z = std::max(0.0, std::abs(r.u - mean) - 0.5) / std::sqrt(variance);
  r.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return r;
}

}  // namespace xb
