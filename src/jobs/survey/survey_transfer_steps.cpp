// The survey's transfers: a loopback link over the default transport (UCX where its module loads; in
// the full survey every other one too, TCP the baseline); P2P where a backend has several devices.
#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/link/link_config.hpp"
#include "jobs/link/link_job.hpp"
#include "jobs/p2p/p2p_job.hpp"
#include "jobs/survey/survey_steps.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// Small messages are about latency, large ones about bandwidth: a row shows the figure of its size.
constexpr std::uint64_t kLatencyUpTo = 4096;

std::vector<CaseResult> run_link_step(const LinkPlan& plan, BackendRegistry& registry) {
  validate_link_plan(plan);
  JobContext job{.registry = &registry, .backend = &registry.preferred()};
  std::vector<CaseResult> cases = run(plan, job);
  for (CaseResult& c : cases) {
    const std::uint64_t size = c.config.get<LinkConfig>().size;
    annotate_survey_row(c, {fmt::format("{} loopback", plan.transport), size,
                            size <= kLatencyUpTo ? "latency_avg" : "bandwidth"});
  }
  return cases;
}

void add_link_steps(SurveyState& st, std::vector<SurveyStep>& steps) {
  const SurveyBudget& b = st.plan.budget;
  // The default transport (the one choice, default_transport_name), then in the full survey every
  // other transport of the build; a transport module that is not here keeps its row in either,
  // and the row says why (make_transport's Unavailable), so a node without UCX shows it is.
  std::vector<std::string> wanted{default_transport_name()};
  const auto here = transport_names();
  for (const std::string& name : known_transport_names()) {
    const bool absent = std::ranges::find(here, name) == here.end();
    if ((absent || b.link_every_transport) && std::ranges::find(wanted, name) == wanted.end()) wanted.push_back(name);
  }
  for (const std::string& name : wanted) {
    const LinkPlan plan{.min_bytes = b.link_min, .max_bytes = b.link_max, .step = b.link_step,
                        .iterations = b.link_iterations, .warmup = b.link_warmup, .peer = std::nullopt,  // loopback
                        .transport = name, .token = default_session_token()};
    steps.push_back({fmt::format("{} loopback {}:{}", name, format_size(b.link_min), format_size(b.link_max)), "link",
                     fmt::format("survey_link_{}", name), SurveyRow{fmt::format("{} loopback", name), 0, ""},
                     [plan, registry = &st.registry] { return run_link_step(plan, *registry); }});
  }
}

std::vector<CaseResult> run_p2p_step(const P2pPlan& plan, BackendRegistry& registry, Backend& backend,
                                     const std::string& name) {
  validate_p2p_plan(plan, backend);
  JobContext job{.registry = &registry, .backend = &backend};
  std::vector<CaseResult> cases = run(plan, job);
  for (CaseResult& c : cases) {
    const std::string direction = c.label("direction");
    if (c.name.starts_with("p2p_matrix_")) {
      annotate_survey_row(c, {fmt::format("P2P {} {}, median of all pairs", name, direction), plan.size,
                              "bandwidth_median"});
    } else {
      annotate_survey_row(c, {fmt::format("P2P {} {} {}", c.label("from"), direction == "bidirectional" ? "<->" : "->",
                                          c.label("to")),
                              plan.size, c.status == CaseStatus::ok ? "bandwidth" : ""});
    }
  }
  return cases;
}

// P2P needs two devices of one backend: an all-pairs matrix per backend that has them, through
// the p2p job (one case per ordered pair, plus the matrix case with min/median/max).
void add_p2p_steps(SurveyState& st, std::vector<SurveyStep>& steps) {
  const SurveyBudget& b = st.plan.budget;
  std::string counts;
  bool any = false;
  for (const auto& m : st.registry.modules()) {
    if (!m.loaded) continue;
    Backend& backend = st.registry.get(m.name);
    if (!backend.availability().ok) continue;
    const int devices = backend.device_count();
    counts += fmt::format("{}{}: {}", counts.empty() ? "" : ", ", m.name, devices);
    if (devices < 2) continue;
    any = true;
    const P2pPlan plan{.size = b.p2p_bytes, .executions = b.p2p_executions,
                       .bidirectional = st.plan.level == SurveyLevel::full, .all_pairs = true, .engine = ""};
    steps.push_back({fmt::format("P2P {} all {} x {} pairs", m.name, devices, devices - 1), "p2p",
                     fmt::format("survey_p2p_{}", m.name),
                     SurveyRow{fmt::format("P2P {} ({} devices, all pairs)", m.name, devices), plan.size, ""},
                     [plan, &registry = st.registry, &backend, name = m.name] {
                       return run_p2p_step(plan, registry, backend, name);
                     }});
  }
  if (any) return;
  const std::string reason = fmt::format("needs two devices of one backend (devices: {})", counts);
  steps.push_back({"p2p", "p2p", "survey_p2p", SurveyRow{"P2P", 0, ""},
                   [reason]() -> std::vector<CaseResult> { throw Unavailable(reason); }});
}

}  // namespace

void add_transfer_steps(SurveyState& st, std::vector<SurveyStep>& steps) {
  add_link_steps(st, steps);
  add_p2p_steps(st, steps);
}

}  // namespace xb
