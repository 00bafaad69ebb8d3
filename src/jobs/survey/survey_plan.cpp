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
  SurveyBudget b;
  switch (level) {
    case SurveyLevel::quick:
      b.copy_sizes = {4 * MiB};
      b.copy_blocks = 8;
      b.copy_iterations = 8;
      b.copy_warmup = 2;
      b.storage_file_bytes = 64 * MiB;
      b.storage_randread_seconds = 1;
      b.link_iterations = 100;
      b.link_warmup = 10;
      b.p2p_bytes = 16 * MiB;
      b.p2p_executions = 4;
      break;
    case SurveyLevel::standard:
      b.copy_sizes = {4 * MiB};
      break;
    case SurveyLevel::full:
      b.copy_sizes = {4 * KiB, 64 * KiB, 1 * MiB, 4 * MiB, 16 * MiB};
      b.copy_iterations = 16;
      b.storage_file_bytes = 1024 * MiB;
      b.storage_read_sizes = {4 * KiB, 64 * KiB, 4 * MiB};
      b.storage_randread_seconds = 10;
      b.link_max = 8 * MiB;
      b.link_step = 8;
      b.link_iterations = 500;
      b.link_warmup = 50;
      b.link_every_transport = true;
      b.p2p_bytes = 256 * MiB;
      b.p2p_executions = 20;
      break;
  }
  return b;
}

}  // namespace xb
