// The survey's transfers: a loopback link over UCX (and in the full survey the plain TCP transport
// as the baseline), through run_link; and P2P where a backend has several devices.
#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/link/link_job.hpp"
#include "jobs/survey/survey_steps.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// Small messages are about latency, large ones about bandwidth: the row shows the figure that
// matters at its size.
constexpr std::uint64_t kLatencyUpTo = 4096;

std::vector<CaseResult> run_link_step(const LinkPlan& plan, BackendRegistry& registry) {
  validate_link_plan(plan);
  std::vector<CaseResult> cases = run_link(plan, registry.preferred());
  for (CaseResult& c : cases) {
    const std::uint64_t size = c.config.value("size", std::uint64_t{0});
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

// P2P needs two devices of one backend. The p2p job is being built beside the survey; until the
// survey calls it, a machine with several devices gets a row saying P2P was not measured.
void add_p2p_steps(SurveyState& st, std::vector<SurveyStep>& steps) {
  std::string counts;
  std::vector<std::string> several;
  for (const auto& m : st.registry.modules()) {
    if (!m.loaded) continue;
    Backend& backend = st.registry.get(m.name);
    if (!backend.availability().ok) continue;
    counts += fmt::format("{}{}: {}", counts.empty() ? "" : ", ", m.name, backend.device_count());
    if (backend.device_count() >= 2) several.push_back(m.name);
  }
  SurveyStep step{"p2p", "p2p", "survey_p2p", SurveyRow{"P2P", 0, ""}, nullptr};
  const std::string reason =
      several.empty() ? fmt::format("needs two devices of one backend (devices: {})", counts)
                      : fmt::format("not measured by the survey yet (the p2p job's entry point is not wired in); "
                                    "run `xferbench p2p --all-pairs --backend {}`",
                                    several.front());
  step.run = [reason]() -> std::vector<CaseResult> { throw Unavailable(reason); };
  steps.push_back(std::move(step));
}

}  // namespace

void add_transfer_steps(SurveyState& st, std::vector<SurveyStep>& steps) {
  add_link_steps(st, steps);
  add_p2p_steps(st, steps);
}

}  // namespace xb
