// The survey's memory copies: H2D, D2H and D2D on every available backend (all its devices at once,
// one process each, as the copy job runs them), and a host memory copy; through the copy job.
#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/copy/copy_job.hpp"
#include "jobs/survey/survey_steps.hpp"

namespace xb {
namespace {

// Each direction's name, which a row's path starts with.
constexpr NamedValue<CopyDirection> kDirections[] = {
    {CopyDirection::h2d, "H2D"}, {CopyDirection::d2h, "D2H"}, {CopyDirection::d2d, "D2D"}};

CopyPlan copy_plan(const SurveyBudget& b, Backend& backend, CopyDirection direction, std::uint64_t size, int devices) {
  return {.backend = std::string(backend.name()), .direction = direction, .host_kind = HostMemoryKind::pinned,
          .engine = "", .block_bytes = size, .blocks = b.copy_blocks,
          .iterations = b.copy_iterations, .warmup = b.copy_warmup, .devices = devices};
}

// The copy job's own engine (no --engine: the fastest where it has a choice, copy_engine_choice);
// `name_engine`: the row's path says which ("host memory copy, nt").
std::vector<CaseResult> run_copy_step(const CopyPlan& plan, BackendRegistry& registry, Backend& backend,
                                      const SurveyRow& row, bool name_engine = false) {
  validate_copy_plan(plan, backend);
  JobContext job{.registry = &registry, .backend = &backend};
  std::vector<CaseResult> cases = run(plan, job);
  for (CaseResult& c : cases) {
    SurveyRow named = row;
    if (name_engine) named.path += ", " + c.config.value("engine", std::string("?"));
    annotate_survey_row(c, named);
  }
  return cases;
}

// Backend modules that could not be loaded, or that cannot run here: one row each, saying why.
void add_unusable_backends(SurveyState& state, std::vector<SurveyStep>& steps) {
  for (const auto& m : state.registry.modules()) {
    std::string reason;
    if (!m.loaded) {
      reason = fmt::format("backend module {} refused: {}", m.path.string(), m.reason);
    } else {
      const Support s = state.registry.get(m.name).availability();
      if (s.ok) continue;
      reason = fmt::format("backend {} not available: {}", m.name, s.reason);
    }
    steps.push_back({fmt::format("copy {}", m.name), "copy", fmt::format("survey_copy_{}", m.name),
                     SurveyRow{fmt::format("H2D/D2H/D2D {}", m.name), 0, ""},
                     [reason]() -> std::vector<CaseResult> { throw Unavailable(reason); }});
  }
}

}  // namespace

void add_copy_steps(SurveyState& state, std::vector<SurveyStep>& steps) {
  const SurveyBudget& b = state.plan.budget;
  for (const auto& m : state.registry.modules()) {
    if (!m.loaded) continue;
    Backend& backend = state.registry.get(m.name);
    if (!backend.availability().ok) continue;
    const int devices = std::max(1, backend.device_count());
    const std::string who = fmt::format("{} ({} device{})", backend.name(), devices, devices == 1 ? "" : "s, all at once");
    for (const auto& [direction, name] : kDirections) {
      for (const std::uint64_t size : b.copy_sizes) {
        const SurveyRow row{fmt::format("{} {}", name, who), size, "bandwidth"};
        const CopyPlan plan = copy_plan(b, backend, direction, size, devices);
        steps.push_back({fmt::format("{} {} {}", name, backend.name(), format_size(size)), "copy",
                         fmt::format("survey_{}_{}_{}", to_string(direction), backend.name(), size), row,
                         [plan, &registry = state.registry, &backend, row] { return run_copy_step(plan, registry, backend, row); }});
      }
    }
  }
  add_unusable_backends(state, steps);
  // Host memory to host memory: the cpu backend's copy stream, pinned to pinned, its fastest engine.
  Backend& cpu = state.registry.get("cpu");
  for (const std::uint64_t size : b.copy_sizes) {
    const SurveyRow row{"host memory copy", size, "bandwidth"};
    const CopyPlan plan = copy_plan(b, cpu, CopyDirection::h2h, size, 1);
    steps.push_back({fmt::format("host memory copy {}", format_size(size)), "copy",
                     fmt::format("survey_h2h_{}", size), row,
                     [plan, &registry = state.registry, &cpu, row] { return run_copy_step(plan, registry, cpu, row, true); }});
  }
}

}  // namespace xb
