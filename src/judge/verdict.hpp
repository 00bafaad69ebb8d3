#pragma once
// A figure judged: the expectation that decides for it (expectations.hpp), the
// ratio actual / expected and the verdict: FAIL below the rule's fail_below, WARN below its
// warn_below, else PASS; a PASS on a path with a link trained below its capability is a WARN.
// Unjudged (no rule applies, or the case has no figure) says why.
#include <functional>
#include <vector>

#include "core/result.hpp"
#include "judge/ceiling.hpp"
#include "judge/expectations.hpp"

namespace xb {

// What a job's figure is, for judging (each job's *_figure.hpp makes one from a case): the facts
// the rules match on and the path's ceiling. An empty path means the case has no path kind (a
// mixed read/write run): unjudged, the ceiling's derivation saying why.
struct JudgedFigure {
  FigureFacts facts;
  Ceiling ceiling;
};

// "PASS", "WARN" or "FAIL" for `ratio` under `rule`'s thresholds.
std::string verdict_for_ratio(double ratio, const ExpectRule& rule);

// Judges `c`'s metric `facts.metric` (a bandwidth) against the layers, the ceiling being the
// path's (`facts.ceiling_bytes_per_second` is taken from it).
CaseVerdict judge_figure(const CaseResult& c, FigureFacts facts, const Ceiling& ceiling, const ExpectationLayers& layers);

// Sets every case's verdict: `figure_of` gives its facts and ceiling, read after the run (a device's
// link is still awake then); a throw from it is that case's "unjudged", with the reason.
void judge_cases(std::vector<CaseResult>& cases, const ExpectationLayers& layers,
                 const std::function<JudgedFigure(const CaseResult&)>& figure_of);

// Any case whose verdict is FAIL: the run's exit status is 1.
bool any_failed(const std::vector<CaseResult>& cases);

}  // namespace xb
