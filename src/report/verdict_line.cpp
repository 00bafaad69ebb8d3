#include "report/verdict_line.hpp"

#include <fmt/format.h>

#include "report/renderer.hpp"

namespace xb {

std::string verdict_line(const CaseResult& c) {
  if (!c.verdict) return "";
  const CaseVerdict& v = *c.verdict;
  const std::string what = c.title.empty() ? c.name : c.title;
  if (!v.expected || !v.ratio) return fmt::format("{}: unjudged: {}", what, v.reason);
  return fmt::format("{}: {} {}, expected {} {} ({:.2f} x): {} by {} ({}, {})", what, format_number(v.actual), v.unit,
                     format_number(*v.expected), v.unit, *v.ratio, v.verdict, v.rule, v.layer, v.origin);
}

}  // namespace xb
