#include "report/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "core/mann_whitney.hpp"
#include "core/stats.hpp"

namespace xb {
namespace {

// Labels that are not the case's identity: an outcome (a fleet link's verdict) or a run's
// incidentals (the ephemeral address an xfer server's client came from).
constexpr std::array<std::string_view, 2> kIncidentalLabels{"verdict", "client"};

// One side's repetitions of one case, in the order met.
struct Repetitions {
  CaseKey key;
  std::vector<const CaseResult*> cases;
};

// One side's cases by key, in the order first met, and indexed: a fleet's result holds tens of
// thousands of link cases, so matching is a lookup, not a scan per case.
struct Side {
  std::vector<Repetitions> in_order;
  std::map<CaseKey, std::size_t> index;
};

Side group(const std::vector<ResultDocument>& docs) {
  Side out;
  for (const auto& d : docs) {
    for (const auto& c : d.cases) {
      CaseKey key = compare_key_of(c);
      const auto [it, added] = out.index.try_emplace(key, out.in_order.size());
      if (added) out.in_order.push_back({std::move(key), {}});
      out.in_order[it->second].cases.push_back(&c);
    }
  }
  return out;
}

std::vector<const CaseResult*> ok_only(const std::vector<const CaseResult*>& cases) {
  std::vector<const CaseResult*> ok;
  for (const auto* c : cases) {
    if (c->status == CaseStatus::ok) ok.push_back(c);
  }
  return ok;
}

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

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, 0.5);
}

void compare_metrics(const CaseKey& key, const std::vector<const CaseResult*>& base,
                     const std::vector<const CaseResult*>& now, CompareResult& out) {
  for (const auto& bm : base.front()->metrics) {
    const auto better = gated_direction(bm);
    if (!better) continue;
    CompareRow row{key, bm.name, bm.unit, *better, std::nullopt, std::nullopt, std::nullopt, 0, 0, std::nullopt, false, {}};
    std::vector<double> b, n;
    std::string unconvertible;
    for (const auto* c : base) {
      if (const Metric* m = c->find_metric(bm.name); m != nullptr) {
        if (const auto v = in_unit(*m, bm.unit)) b.push_back(*v);  // a repetition in another unit, converted
      }
    }
    for (const auto* c : now) {
      const Metric* m = c->find_metric(bm.name);
      if (m == nullptr) continue;
      if (const auto v = in_unit(*m, bm.unit)) {
        n.push_back(*v);
      } else {
        unconvertible = m->unit;
      }
    }
    row.base_runs = b.size();
    row.new_runs = n.size();
    row.base = median(b);
    if (n.empty()) {
      row.note = unconvertible.empty() ? "not in NEW"
                                       : fmt::format("NEW states it in {}, not comparable with {}", unconvertible, bm.unit);
      out.rows.push_back(std::move(row));
      continue;
    }
    row.now = median(n);
    const double num = *better == Better::higher ? *row.now : *row.base;
    const double den = *better == Better::higher ? *row.base : *row.now;
    if (den != 0) {
      row.ratio = num / den;
    } else if (num == 0) {
      row.ratio = 1.0;
    } else {
      // A zero where the other is not: only ever an improvement here (0 bandwidth in BASE, 0
      // latency in NEW); a drop to zero is ratio 0 above.
      row.note = *better == Better::higher ? "BASE is 0" : "NEW is 0";
    }
    const bool dropped = row.ratio && *row.ratio < out.options.threshold;
    if (b.size() >= 2 && n.size() >= 2) {
      row.p_value = mann_whitney(b, n).p_value;
      if (mann_whitney_smallest_p(b.size(), n.size()) >= out.options.alpha) {
        // Too few runs for any p below alpha: the test could never confirm a drop, so the threshold
        // decides, as with one run a side (a few repetitions must not weaken the gate).
        row.below = dropped;
        if (dropped) {
          row.note = fmt::format("{} + {} runs cannot reach p < {}: the threshold decides", b.size(), n.size(),
                                 out.options.alpha);
        }
      } else {
        row.below = dropped && *row.p_value < out.options.alpha;
        if (dropped && !row.below) {
          row.note = fmt::format("not significant (p = {:.3g} ≥ {}, {} + {} runs)", *row.p_value, out.options.alpha,
                                 b.size(), n.size());
        }
      }
    } else {
      row.below = dropped;  // one run a side: the threshold alone decides
    }
    out.rows.push_back(std::move(row));
  }
}

}  // namespace

CaseKey compare_key_of(const CaseResult& c) {
  CaseKey key{c.job, c.name, {}};
  for (const auto& label : c.labels) {
    if (std::find(kIncidentalLabels.begin(), kIncidentalLabels.end(), label.first) == kIncidentalLabels.end()) {
      key.labels.push_back(label);
    }
  }
  return key;
}

CompareResult compare_results(const std::vector<ResultDocument>& base_docs, const std::vector<ResultDocument>& new_docs,
                              const CompareOptions& options) {
  CompareResult out;
  out.options = options;
  const Side base = group(base_docs), now = group(new_docs);
  std::vector<bool> used(now.in_order.size(), false);
  for (const auto& b : base.in_order) {
    const auto found = now.index.find(b.key);
    if (found == now.index.end()) {
      out.only_in_base.push_back(b.key);
      continue;
    }
    used[found->second] = true;
    const Repetitions* it = &now.in_order[found->second];
    ++out.matched;
    const auto base_ok = ok_only(b.cases), new_ok = ok_only(it->cases);
    CompareRow status{b.key, {}, {}, Better::higher, std::nullopt, std::nullopt, std::nullopt, b.cases.size(),
                      it->cases.size(), std::nullopt, false, {}};
    if (base_ok.empty()) {
      const CaseResult& c = *b.cases.front();
      status.note = fmt::format("{} in BASE ({}): not compared", to_string(c.status), c.status_reason);
      out.rows.push_back(std::move(status));
    } else if (new_ok.empty()) {
      const CaseResult& c = *it->cases.front();
      status.below = true;
      status.note = fmt::format("{} in NEW ({})", to_string(c.status), c.status_reason);
      out.rows.push_back(std::move(status));
    } else {
      // Some NEW runs lost the path while every BASE run had it: a flaky path is a regression too.
      if (new_ok.size() < it->cases.size() && base_ok.size() == b.cases.size()) {
        const auto lost = std::find_if(it->cases.begin(), it->cases.end(),
                                       [](const CaseResult* c) { return c->status != CaseStatus::ok; });
        status.below = true;
        status.note = fmt::format("{} of {} runs {} in NEW ({})", it->cases.size() - new_ok.size(), it->cases.size(),
                                  to_string((*lost)->status), (*lost)->status_reason);
        out.rows.push_back(std::move(status));
      }
      compare_metrics(b.key, base_ok, new_ok, out);
    }
  }
  for (std::size_t i = 0; i < now.in_order.size(); ++i) {
    if (!used[i]) out.only_in_new.push_back(now.in_order[i].key);
  }
  out.below = static_cast<std::size_t>(std::count_if(out.rows.begin(), out.rows.end(), [](const auto& r) { return r.below; }));
  return out;
}

}  // namespace xb
