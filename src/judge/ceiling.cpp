#include "judge/ceiling.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace xb {
namespace {

// The lower of two optional figures; an unknown one does not lower a known one (the path's known
// part still bounds it: the ceiling stays an upper bound, only looser).
std::optional<double> lower(std::optional<double> a, std::optional<double> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

}  // namespace

Ceiling narrower_of(const Ceiling& a, const Ceiling& b) {
  Ceiling c;
  c.bytes_per_second = lower(a.bytes_per_second, b.bytes_per_second);
  c.capable_bytes_per_second = lower(a.capable_bytes_per_second, b.capable_bytes_per_second);
  c.derivation = a.derivation.empty() ? b.derivation : b.derivation.empty() ? a.derivation : a.derivation + "; " + b.derivation;
  c.warnings = a.warnings;
  c.warnings.insert(c.warnings.end(), b.warnings.begin(), b.warnings.end());
  return c;
}

Ceiling sum_of(const std::vector<Ceiling>& parts) {
  Ceiling c;
  double sum = 0, capable = 0;
  bool known = !parts.empty();
  std::vector<std::string> derivations;
  for (const Ceiling& p : parts) {
    derivations.push_back(p.derivation);
    c.warnings.insert(c.warnings.end(), p.warnings.begin(), p.warnings.end());
    if (!p.bytes_per_second) {
      known = false;
      continue;
    }
    sum += *p.bytes_per_second;
    capable += p.capable_bytes_per_second.value_or(*p.bytes_per_second);
  }
  if (known) {
    c.bytes_per_second = sum;
    c.capable_bytes_per_second = capable;
  }
  c.derivation = fmt::format("{}", fmt::join(derivations, "; "));
  return c;
}

Ceiling scaled_by(Ceiling c, double factor, std::string_view why) {
  if (c.bytes_per_second) *c.bytes_per_second *= factor;
  if (c.capable_bytes_per_second) *c.capable_bytes_per_second *= factor;
  c.derivation = std::string(why) + c.derivation;
  return c;
}

}  // namespace xb
