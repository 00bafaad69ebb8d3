#include "jobs/p2p/p2p_job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <latch>
#include <map>
#include <optional>
#include <vector>

#include "core/matrix.hpp"
#include "core/size.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/p2p/p2p_copy.hpp"
#include "runtime/thread_team.hpp"

namespace xb {
namespace {

const char* direction_word(bool bidirectional) { return bidirectional ? "bidirectional" : "unidirectional"; }

bool measures(const P2pPlan& p, bool bidirectional) { return bidirectional ? p.bidirectional : p.unidirectional; }

// The verification pattern's seed of a device's source.
std::uint64_t seed_of(const P2pPlan& p, const P2pDevice& d) { return p.seed + static_cast<std::uint64_t>(d.index); }

P2pConfig plan_config(const P2pPlan& plan, const std::string& backend, bool bidirectional) {
  P2pConfig c;
  c.backend = backend;
  c.direction = direction_word(bidirectional);
  c.size_bytes = plan.size;
  c.executions = plan.executions;
  c.warmup = plan.warmup;
  c.engine = plan.engine;
  c.verify = plan.verify;
  c.seed = plan.seed;
  c.timing = "device events, executions queued back to back in windows";
  return c;
}

// What a pair's case and its waived case share.
CaseResult pair_case(const P2pPlan& plan, const std::string& from, const std::string& to, bool bidirectional) {
  CaseResult c;
  c.job = "p2p";
  c.name = fmt::format("p2p_{}", direction_word(bidirectional));
  c.title = fmt::format("p2p {} {} {}", from, bidirectional ? "<->" : "->", to);
  c.labels = {{"direction", direction_word(bidirectional)},
              {"from", from},
              {"to", to},
              {"size", format_size(plan.size)},
              {"times", std::to_string(plan.executions)}};
  return c;
}

// The ordered pairs of a plan, unidirectional first then bidirectional (one per unordered pair).
struct Planned {
  P2pPair pair;
  bool bidirectional;
};

std::vector<Planned> planned_cases(const P2pPlan& plan, int devices) {
  std::vector<Planned> out;
  std::vector<P2pPair> pairs = plan.pairs;
  if (plan.all_pairs) {
    pairs.clear();
    for (int s = 0; s < devices; ++s) {
      for (int d = 0; d < devices; ++d) {
        if (s != d) pairs.push_back({s, d});
      }
    }
  }
  for (const bool bidirectional : {false, true}) {
    if (!measures(plan, bidirectional)) continue;
    for (const auto& p : pairs) {
      // a <-> b and b <-> a are one experiment in a matrix: measure it once.
      if (!bidirectional || !plan.all_pairs || p.src <= p.dst) out.push_back({p, bidirectional});
    }
  }
  return out;
}

// The matrix case, with the devices as they describe themselves (the judge's facts).
CaseResult matrix_case(const P2pPlan& plan, const std::string& backend, int devices, bool bidirectional,
                       const std::map<std::pair<int, int>, double>& cells, const std::vector<DeviceInfo>& infos) {
  Matrix m;
  m.title = fmt::format("{} P2P bandwidth, {} per execution, row = source, column = destination",
                        direction_word(bidirectional), format_size(plan.size));
  m.unit = "GB/s";
  std::vector<double> values;
  for (int i = 0; i < devices; ++i) {
    m.rows.push_back(fmt::format("{}{}", backend, i));
    m.cols.push_back(fmt::format("{}{}", backend, i));
    std::vector<std::optional<double>> row;
    for (int j = 0; j < devices; ++j) {
      // Bidirectionally a <-> b is measured once and fills both cells.
      auto it = cells.find(bidirectional ? std::pair{std::min(i, j), std::max(i, j)} : std::pair{i, j});
      if (i == j || it == cells.end()) {
        row.emplace_back();
      } else {
        row.emplace_back(it->second);
        values.push_back(it->second);
      }
    }
    m.values.push_back(std::move(row));
  }
  CaseResult c;
  c.job = "p2p";
  c.name = fmt::format("p2p_matrix_{}", direction_word(bidirectional));
  c.title = fmt::format("p2p {} matrix of {} {} devices, {} per execution, {} executions per pair",
                        direction_word(bidirectional), devices, backend, format_size(plan.size), plan.executions);
  c.labels = {{"direction", direction_word(bidirectional)},
              {"devices", std::to_string(devices)},
              {"size", format_size(plan.size)},
              {"times", std::to_string(plan.executions)}};
  P2pConfig config = plan_config(plan, backend, bidirectional);
  config.devices = devices;
  config.matrix = matrix_to_json(m);
  config.device_info = infos;
  c.config = config;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double lo = n ? values.front() : 0, hi = n ? values.back() : 0;
  const double median = n == 0 ? 0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  c.metrics = {{"bandwidth_min", lo, "GB/s", "the lowest measured cell of the matrix"},
               {"bandwidth_median", median, "GB/s", "the median of the measured cells"},
               {"bandwidth_max", hi, "GB/s", "the highest measured cell of the matrix"},
               {"pairs", static_cast<double>(values.size()), "cells", "measured cells (waived pairs are null)"}};
  return c;
}

// Each execution of a card lasts until its slowest die is done: the card's time per execution.
ElapsedRecord slowest_die_each_execution(const std::vector<ElapsedRecord>& dies) {
  ElapsedRecord card(dies.front().timing() + "; the card's dies at once, each execution its slowest die's");
  const std::size_t n = dies.front().samples_us().size();
  for (std::size_t i = 0; i < n; ++i) {
    double slowest = 0;
    for (const auto& d : dies) slowest = std::max(slowest, d.samples_us().at(i));
    card.add(slowest);
  }
  return card;
}

// Each destination checked for its source's pattern: b's for a's, and a's for b's when bidirectional.
void check_pair(P2pDevice& a, P2pDevice& b, const P2pPlan& plan, bool bidirectional, const std::string& backend) {
  check_p2p_destination(b, a, plan.size, seed_of(plan, a), backend);
  if (bidirectional) check_p2p_destination(a, b, plan.size, seed_of(plan, b), backend);
}

// ascend-dmi -m card: every die of the source card to its counterpart on the destination card, all
// at once (a thread per die, released together), measured as the card.
std::vector<CaseResult> run_card_pair(const P2pPlan& plan, Backend& backend, JobContext& ctx,
                                      const std::vector<Planned>& planned) {
  const std::string name(backend.name());
  const int dies = plan.card_dies;
  const P2pPair card = plan.pairs.front();
  const std::string from = fmt::format("{}::card::{}", name, card.src), to = fmt::format("{}::card::{}", name, card.dst);
  std::vector<P2pDevice> src, dst;
  for (int k = 0; k < dies; ++k) {
    src.push_back(P2pDevice::open(backend, card.src * dies + k, plan.size, plan.engine));
    dst.push_back(P2pDevice::open(backend, card.dst * dies + k, plan.size, plan.engine));
    if (plan.verify) {
      fill_p2p_source(src.back(), plan.size, seed_of(plan, src.back()));
      fill_p2p_source(dst.back(), plan.size, seed_of(plan, dst.back()));
    }
  }
  std::vector<CaseResult> cases;
  for (const Planned& p : planned) {
    const bool bidirectional = p.bidirectional;
    Support reach = Support::yes();
    for (int k = 0; k < dies && reach.ok; ++k) reach = connect_p2p(src[k], dst[k], bidirectional);
    if (!reach.ok) {
      cases.push_back(make_p2p_waived_case(plan, from, to, bidirectional, reach.reason));
      ctx.emit(cases.back());
      continue;
    }
    std::vector<ElapsedRecord> per_die(static_cast<std::size_t>(dies));
    std::latch start(dies);
    std::atomic<bool> stop{false};
    run_thread_team(static_cast<std::size_t>(dies), start, stop, [&](std::size_t i) {
      start.arrive_and_wait();
      if (stop) return;
      per_die[i] = run_p2p_executions(src[i], dst[i], plan.size, bidirectional, plan.warmup, plan.executions,
                                      ctx.progress, ctx.stop);
    });
    if (plan.verify) {
      for (int k = 0; k < dies; ++k) check_pair(src[k], dst[k], plan, bidirectional, name);
    }
    cases.push_back(make_p2p_case(plan, name, from, to, bidirectional, slowest_die_each_execution(per_die)));
    ctx.emit(cases.back());
  }
  return cases;
}

}  // namespace

std::string p2p_device_name(std::string_view backend, int index) { return fmt::format("{}::device::{}", backend, index); }

CaseResult make_p2p_case(const P2pPlan& plan, const std::string& backend, const std::string& from,
                         const std::string& to, bool bidirectional, const ElapsedRecord& elapsed) {
  CaseResult c = pair_case(plan, from, to, bidirectional);
  c.title += fmt::format(", {} per execution and direction, {} executions", format_size(plan.size), plan.executions);
  if (plan.card_dies > 0) c.title += fmt::format(", the card's {} devices at once", plan.card_dies);
  P2pConfig config = plan_config(plan, backend, bidirectional);
  config.from = from;
  config.to = to;
  if (!elapsed.timing().empty()) config.timing = elapsed.timing();
  c.config = config;
  c.series = p2p_series(elapsed);
  c.metrics = p2p_metrics(elapsed, plan.size * static_cast<std::uint64_t>(std::max(plan.card_dies, 1)), bidirectional);
  return c;
}

CaseResult make_p2p_waived_case(const P2pPlan& plan, const std::string& from, const std::string& to,
                                bool bidirectional, const std::string& reason) {
  CaseResult c = pair_case(plan, from, to, bidirectional);
  c.status = CaseStatus::waived;
  c.status_reason = reason;
  return c;
}

std::vector<CaseResult> run(const P2pPlan& plan_in, JobContext& ctx) {
  Backend& backend = ctx.need_backend("p2p");
  const ProgressStep step(ctx.progress, fmt::format("p2p: {} x {}…", format_size(plan_in.size), plan_in.executions));
  P2pPlan plan = plan_in;
  if (plan.engine.empty()) plan.engine = backend.capabilities().engines.front();
  const std::string name(backend.name());
  const int devices = plan.all_pairs ? p2p_device_count(plan, backend) : 0;
  const auto planned = planned_cases(plan, devices);
  // Every planned case's executions, warm-ups, directions and a card's dies; a waived pair moves
  // nothing, so its share leaves the work when it is waived (else the time left would never reach 0).
  const auto case_work = [&plan](bool bidirectional) {
    return (plan.warmup + plan.executions) * plan.size * (bidirectional ? 2 : 1) *
           static_cast<std::uint64_t>(std::max(plan.card_dies, 1));
  };
  std::uint64_t work = 0;
  for (const auto& p : planned) work += case_work(p.bidirectional);
  step.expect_bytes(work);
  if (plan.card_dies > 0) return run_card_pair(plan, backend, ctx, planned);

  // Every device used, opened once with its buffers (its source holding its pattern if verifying).
  std::map<int, P2pDevice> open;
  for (const auto& p : planned) {
    for (int index : {p.pair.src, p.pair.dst}) {
      if (open.count(index)) continue;
      P2pDevice d = P2pDevice::open(backend, index, plan.size, plan.engine);
      if (plan.verify) fill_p2p_source(d, plan.size, seed_of(plan, d));
      open.emplace(index, std::move(d));
    }
  }

  std::vector<CaseResult> cases;
  std::map<std::pair<int, int>, double> uni_cells, bi_cells;
  for (const auto& p : planned) {
    P2pDevice& a = open.at(p.pair.src);
    P2pDevice& b = open.at(p.pair.dst);
    const std::string from = p2p_device_name(name, a.index);
    const std::string to = p2p_device_name(name, b.index);
    const Support reach = connect_p2p(a, b, p.bidirectional);
    if (!reach.ok) {
      cases.push_back(make_p2p_waived_case(plan, from, to, p.bidirectional, reach.reason));
      work -= case_work(p.bidirectional);
      step.expect_bytes(work);
    } else {
      const ElapsedRecord elapsed =
          run_p2p_executions(a, b, plan.size, p.bidirectional, plan.warmup, plan.executions, ctx.progress, ctx.stop);
      if (plan.verify) check_pair(a, b, plan, p.bidirectional, name);
      cases.push_back(make_p2p_case(plan, name, from, to, p.bidirectional, elapsed));
      auto config = cases.back().config.get<P2pConfig>();
      config.device_info = {a.device->info(), b.device->info()};  // the judge's facts
      cases.back().config = config;
      const double bw = cases.back().find_metric("bandwidth")->value;
      (p.bidirectional ? bi_cells : uni_cells)[{a.index, b.index}] = bw;
    }
    ctx.emit(cases.back());
  }
  if (plan.all_pairs) {
    std::vector<DeviceInfo> infos;
    for (const auto& [index, d] : open) infos.push_back(d.device->info());
    for (const bool bidirectional : {false, true}) {
      if (!measures(plan, bidirectional)) continue;
      cases.push_back(matrix_case(plan, name, devices, bidirectional, bidirectional ? bi_cells : uni_cells, infos));
      ctx.emit(cases.back());
    }
  }
  return cases;
}

}  // namespace xb
