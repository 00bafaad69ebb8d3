#pragma once
// A figure judged (issue 17, item 3): the expectation that decides for it (expectations.hpp), the
// ratio actual / expected and the verdict: FAIL below the rule's fail_below, WARN below its
// warn_below, else PASS; a PASS on a path with a link trained below its capability is a WARN.
// Unjudged (no rule applies, or the case has no figure) says why.
#include "core/result.hpp"
#include "judge/ceiling.hpp"
#include "judge/expectations.hpp"

namespace xb {

// "PASS", "WARN" or "FAIL" for `ratio` under `rule`'s thresholds.
std::string verdict_for_ratio(double ratio, const ExpectRule& rule);

// Judges `c`'s metric `facts.metric` (a bandwidth) against the layers, the ceiling being the
// path's (`facts.ceiling_bytes_per_second` is taken from it).
CaseVerdict judge_figure(const CaseResult& c, FigureFacts facts, const Ceiling& ceiling, const ExpectationLayers& layers);

// Any case whose verdict is FAIL: the run's exit status is 1.
bool any_failed(const std::vector<CaseResult>& cases);

}  // namespace xb
