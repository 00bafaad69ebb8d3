#include "judge/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/metric_units.hpp"

namespace xb {

std::string verdict_for_ratio(double ratio, const ExpectRule& rule) {
  if (ratio < rule.fail_below) return "FAIL";
  if (ratio < rule.warn_below) return "WARN";
  return "PASS";
}

CaseVerdict judge_figure(const CaseResult& c, FigureFacts facts, const Ceiling& ceiling, const ExpectationLayers& layers) {
  CaseVerdict v;
  v.metric = facts.metric;
  v.verdict = "unjudged";
  v.ceiling_derivation = ceiling.derivation;
  v.warnings = ceiling.warnings;
  const Metric* m = c.find_metric(facts.metric);
  if (c.status != CaseStatus::ok || m == nullptr) {
    v.ceiling_derivation = c.status != CaseStatus::ok ? fmt::format("the case has no figure ({}: {})",
                                                                    c.status == CaseStatus::waived ? "waived" : "failed",
                                                                    c.status_reason)
                                                      : fmt::format("the case has no {} figure", facts.metric);
    return v;
  }
  v.unit = m->unit;
  v.actual = m->value;
  const auto unit_bytes = bandwidth_unit_bytes(m->unit);
  if (!unit_bytes) {
    v.ceiling_derivation = fmt::format("{} is in {}, not a bandwidth: only bandwidths are judged", facts.metric, m->unit);
    return v;
  }
  facts.ceiling_bytes_per_second = ceiling.bytes_per_second;
  if (ceiling.bytes_per_second) v.ceiling = *ceiling.bytes_per_second / *unit_bytes;
  const auto resolved = resolve_expectation(layers.in_order(), facts);
  if (!resolved) return v;  // the derivation says why the ceiling (and so every share of it) is unknown
  const ExpectRule& r = *resolved->rule;
  v.expected = resolved->expected_bytes_per_second / *unit_bytes;
  v.ratio = v.actual / *v.expected;
  v.rule = r.text;
  v.layer = std::string(layer_name(r.layer));
  v.origin = r.origin;
  v.verdict = verdict_for_ratio(*v.ratio, r);
  // A link trained below what both its ends can do is worth a look even when the figure is fine.
  if (v.verdict == "PASS" && !ceiling.warnings.empty()) v.verdict = "WARN";
  return v;
}

bool any_failed(const std::vector<CaseResult>& cases) {
  return std::any_of(cases.begin(), cases.end(), [](const CaseResult& c) { return c.verdict && c.verdict->verdict == "FAIL"; });
}

}  // namespace xb
