#include "jobs/survey/survey_plan.hpp"

#include "core/enum_names.hpp"

namespace xb {
namespace {
constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024;
}  // namespace

std::string_view to_string(SurveyLevel level) {
  constexpr NamedValue<SurveyLevel> kNames[] = {
      {SurveyLevel::quick, "quick"}, {SurveyLevel::standard, "default"}, {SurveyLevel::full, "full"}};
  return name_of(kNames, level);
}

// The budgets: quick about 10 s, default well under 60 s, full the sweeps (minutes), on a
// 2-core virtual machine with a virtio disk (docs/survey.md has the measured step times).
SurveyBudget survey_budget(SurveyLevel level) {
  switch (level) {
    case SurveyLevel::quick:
      return {.copy_sizes = {4 * MiB}, .copy_blocks = 8, .copy_iterations = 8, .copy_warmup = 2,
              .storage_file_bytes = 64 * MiB, .storage_randread_seconds = 1, .link_iterations = 100,
              .link_warmup = 10, .p2p_bytes = 16 * MiB, .p2p_executions = 4};
    case SurveyLevel::standard: return {.copy_sizes = {4 * MiB}};
    case SurveyLevel::full:
      return {.copy_sizes = {4 * KiB, 64 * KiB, 1 * MiB, 4 * MiB, 16 * MiB}, .copy_iterations = 16,
              .storage_file_bytes = 1024 * MiB, .storage_read_sizes = {4 * KiB, 64 * KiB, 4 * MiB},
              .storage_randread_seconds = 10, .link_max = 8 * MiB, .link_step = 8, .link_iterations = 500,
              .link_warmup = 50, .link_every_transport = true, .p2p_bytes = 256 * MiB, .p2p_executions = 20};
  }
  return {};
}

}  // namespace xb
