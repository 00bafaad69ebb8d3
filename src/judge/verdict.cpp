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
  v.metric = facts.case_metric.empty() ? facts.metric : facts.case_metric;
  v.verdict = "unjudged";
  v.ceiling_derivation = ceiling.derivation;
  v.warnings = ceiling.warnings;
  v.sku = sku_note(layers, {facts.device}, facts.server);
  const Metric* m = c.find_metric(v.metric);
  if (c.status != CaseStatus::ok || m == nullptr) {
    v.reason = c.status != CaseStatus::ok ? fmt::format("the case has no figure ({}: {})",
                                                        c.status == CaseStatus::waived ? "waived" : "failed", c.status_reason)
                                          : fmt::format("the case has no {} figure", v.metric);
    return v;
  }
  v.unit = m->unit;
  v.actual = m->value;
  const auto unit_bytes = bandwidth_unit_bytes(m->unit);
  if (!unit_bytes) {
    v.reason = fmt::format("{} is in {}, not a bandwidth: only bandwidths are judged", v.metric, m->unit);
    return v;
  }
  if (ceiling.bytes_per_second) v.ceiling = *ceiling.bytes_per_second / *unit_bytes;
  if (facts.path.empty()) {
    v.reason = ceiling.derivation;  // the figure's maker says why it has no path kind
    return v;
  }
  facts.ceiling_bytes_per_second = ceiling.bytes_per_second;
  const auto resolved = resolve_expectation(layers.in_order(), facts);
  if (!resolved) {
    v.reason = ceiling.bytes_per_second
                   ? fmt::format("no rule applies to {} {} at {} B blocks", facts.path, facts.metric, facts.block_bytes)
                   : fmt::format("no rule with a figure applies to {} {}, and its ceiling is unknown", facts.path, facts.metric);
    return v;
  }
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

void judge_cases(std::vector<CaseResult>& cases, const ExpectationLayers& layers,
                 const std::function<JudgedFigure(const CaseResult&)>& figure_of) {
  for (auto& c : cases) {
    if (c.status != CaseStatus::ok) {  // waived or failed: no figure, and often no configuration to read
      c.verdict = judge_figure(c, FigureFacts{}, Ceiling{}, layers);
      continue;
    }
    try {
      const JudgedFigure f = figure_of(c);
      c.verdict = judge_figure(c, f.facts, f.ceiling, layers);
    } catch (const std::exception& e) {
      CaseVerdict v;
      v.verdict = "unjudged";
      v.reason = fmt::format("its facts could not be read: {}", e.what());
      c.verdict = std::move(v);
    }
  }
}

bool any_failed(const std::vector<CaseResult>& cases) {
  return std::any_of(cases.begin(), cases.end(), [](const CaseResult& c) { return c.verdict && c.verdict->verdict == "FAIL"; });
}

}  // namespace xb
