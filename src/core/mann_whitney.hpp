#pragma once
// The Mann–Whitney U test (Wilcoxon rank-sum): do two sets of repeated measurements differ more
// than chance would make them? What `compare` asks of a case's repetitions before it calls a drop
// a regression (Google benchmark's compare.py asks the same). No distribution is assumed: bandwidth
// repetitions are skewed (a run that met a noisy neighbour is slow, never fast).
#include <cstddef>
#include <span>

namespace xb {

struct MannWhitney {
  double u = 0;        // U of the first sample: pairs (a, b) with a > b, ties counting a half
  double p_value = 1;  // two-sided
  bool exact = false;  // from the exact permutation distribution (small samples), else the normal
                       // approximation with the tie and continuity corrections
};

// Both samples need at least one value (else p is 1). Exact where n1 + n2 <= kMannWhitneyExactMax
// (the permutation distribution of the rank sum, ties included at their average ranks), else the
// normal approximation. The smallest two-sided p with n values a side is 2 / C(2n, n): 0.33 at
// 2 + 2, 0.1 at 3 + 3, 0.029 at 4 + 4, so 5% needs 4 repetitions a side.
inline constexpr std::size_t kMannWhitneyExactMax = 40;
MannWhitney mann_whitney(std::span<const double> a, std::span<const double> b);

// The smallest two-sided p any n1 + n2 values can give (2 / C(n1 + n2, n1)): where it is not below
// a level, no difference however large can be called significant at it.
double mann_whitney_smallest_p(std::size_t n1, std::size_t n2);

}  // namespace xb
