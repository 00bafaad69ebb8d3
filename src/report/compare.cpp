#include "report/compare.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace xb {
namespace {

CaseKey key_of(const CaseResult& c) { return {c.job, c.name, c.labels}; }

// NEW's value in BASE's unit: equal units, or two bandwidths or two times converted.
std::optional<double> in_unit(const Metric& m, const std::string& unit) {
  if (m.unit == unit) return m.value;
  if (const auto from = bandwidth_unit_bytes(m.unit), to = bandwidth_unit_bytes(unit); from && to) {
    return m.value * *from / *to;
  }
  if (const auto from = time_unit_seconds(m.unit), to = time_unit_seconds(unit); from && to) {
    return m.value * *from / *to;
  }
  return std::nullopt;
}

void compare_metrics(const CaseResult& b, const CaseResult& n, CompareResult& out) {
  for (const auto& bm : b.metrics) {
    const auto better = gated_direction(bm);
    if (!better) continue;
    CompareRow row{key_of(b), bm.name, bm.unit, *better, bm.value, std::nullopt, std::nullopt, false, {}};
    const Metric* nm = n.find_metric(bm.name);
    if (nm == nullptr) {
      row.note = "not in NEW";
    } else if (!(row.now = in_unit(*nm, bm.unit))) {
      row.note = fmt::format("NEW states it in {}, not comparable with {}", nm->unit, bm.unit);
    } else {
      const double num = *better == Better::higher ? *row.now : bm.value;
      const double den = *better == Better::higher ? bm.value : *row.now;
      if (den != 0) {
        row.ratio = num / den;
      } else if (num == 0) {
        row.ratio = 1.0;
      } else {
        // A zero where the other is not: only ever an improvement here (0 bandwidth in BASE, 0
        // latency in NEW); a drop to zero is ratio 0 above.
        row.note = *better == Better::higher ? "BASE is 0" : "NEW is 0";
      }
      row.below = row.ratio && *row.ratio < out.threshold;
    }
    out.rows.push_back(std::move(row));
  }
}

}  // namespace

CompareResult compare_results(const ResultDocument& base, const ResultDocument& now, double threshold) {
  CompareResult out;
  out.threshold = threshold;
  std::vector<bool> used(now.cases.size(), false);
  for (const auto& b : base.cases) {
    const CaseKey key = key_of(b);
    std::size_t i = 0;
    while (i < now.cases.size() && (used[i] || !(key_of(now.cases[i]) == key))) ++i;
    if (i == now.cases.size()) {
      out.only_in_base.push_back(key);
      continue;
    }
    used[i] = true;
    const CaseResult& n = now.cases[i];
    if (b.status != CaseStatus::ok) {
      CompareRow row{key, {}, {}, Better::higher, std::nullopt, std::nullopt, std::nullopt, false, {}};
      row.note = fmt::format("{} in BASE ({}): not compared", to_string(b.status), b.status_reason);
      out.rows.push_back(std::move(row));
    } else if (n.status != CaseStatus::ok) {
      CompareRow row{key, {}, {}, Better::higher, std::nullopt, std::nullopt, std::nullopt, true, {}};
      row.note = fmt::format("{} in NEW ({})", to_string(n.status), n.status_reason);
      out.rows.push_back(std::move(row));
    } else {
      compare_metrics(b, n, out);
    }
  }
  for (std::size_t i = 0; i < now.cases.size(); ++i) {
    if (!used[i]) out.only_in_new.push_back(key_of(now.cases[i]));
  }
  out.below = static_cast<std::size_t>(std::count_if(out.rows.begin(), out.rows.end(), [](const auto& r) { return r.below; }));
  return out;
}

}  // namespace xb
