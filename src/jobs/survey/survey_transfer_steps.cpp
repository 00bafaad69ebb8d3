// The survey's transfers: a loopback link over UCX (and in the full survey the plain TCP transport
// as the baseline), through the link job; and P2P where a backend has several devices, through the p2p job.
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

// Small messages are about latency, large ones about bandwidth: the row shows the figure that
// matters at its size.
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
  const auto built = transport_names();
  std::vector<std::string> wanted{"ucx"};
  if (b.link_every_transport) wanted.emplace_back("tcp");
  for (const std::string& name : wanted) {
    SurveyStep step{fmt::format("{} loopback {}:{}", name, format_size(b.link_min), format_size(b.link_max)), "link",
                    fmt::format("survey_link_{}", name), SurveyRow{fmt::format("{} loopback", name), 0, ""}, nullptr};
    if (std::find(built.begin(), built.end(), name) == built.end()) {
      step.run = [name]() -> std::vector<CaseResult> {
        throw Unavailable(fmt::format("this build has no {} transport (UCX was not found when it was built)", name));
      };
    } else {
      LinkPlan plan;
      plan.min_bytes = b.link_min;
      plan.max_bytes = b.link_max;
      plan.step = b.link_step;
      plan.iterations = b.link_iterations;
      plan.warmup = b.link_warmup;
      plan.transport = name;
      plan.token = default_session_token();
      BackendRegistry* registry = &st.registry;
      step.run = [plan, registry] { return run_link_step(plan, *registry); };
    }
    steps.push_back(std::move(step));
  }
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
    P2pPlan plan;
    plan.size = b.p2p_bytes;
    plan.executions = b.p2p_executions;
    plan.all_pairs = true;
    plan.bidirectional = st.plan.level == SurveyLevel::full;
    const std::string name = m.name;
    SurveyStep step{fmt::format("P2P {} all {} x {} pairs", name, devices, devices - 1), "p2p",
                    fmt::format("survey_p2p_{}", name),
                    SurveyRow{fmt::format("P2P {} ({} devices, all pairs)", name, devices), plan.size, ""}, nullptr};
    Backend* be = &backend;
    step.run = [plan, &registry = st.registry, be, name] {
      validate_p2p_plan(plan, *be);
      JobContext job{.registry = &registry, .backend = be};
      std::vector<CaseResult> cases = run(plan, job);
      for (CaseResult& c : cases) {
        const std::string direction = c.label("direction");
        if (c.name.rfind("p2p_matrix_", 0) == 0) {
          annotate_survey_row(c, {fmt::format("P2P {} {}, median of all pairs", name, direction),
                                  plan.size, "bandwidth_median"});
        } else {
          annotate_survey_row(c, {fmt::format("P2P {} {} {}", c.label("from"), direction == "bidirectional" ? "<->" : "->",
                                              c.label("to")),
                                  plan.size, c.status == CaseStatus::ok ? "bandwidth" : ""});
        }
      }
      return cases;
    };
    steps.push_back(std::move(step));
  }
  if (any) return;
  SurveyStep step{"p2p", "p2p", "survey_p2p", SurveyRow{"P2P", 0, ""}, nullptr};
  const std::string reason = fmt::format("needs two devices of one backend (devices: {})", counts);
  step.run = [reason]() -> std::vector<CaseResult> { throw Unavailable(reason); };
  steps.push_back(std::move(step));
}

}  // namespace

void add_transfer_steps(SurveyState& st, std::vector<SurveyStep>& steps) {
  add_link_steps(st, steps);
  add_p2p_steps(st, steps);
}

}  // namespace xb
