#pragma once
// What a survey measures and how long it may take: a level (quick, default, full) picks one row of
// budgets, written down once here (docs/survey.md explains them). The survey never measures by
// itself: each budget is turned into a plan of an existing job (copy, io, link, p2p).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace xb {

enum class SurveyLevel { quick, standard, full };

std::string_view to_string(SurveyLevel level);  // "quick", "default", "full"

// The sizes and counts of one level. Sizes in bytes, times in seconds.
struct SurveyBudget {
  // copy (H2D, D2H, D2D per backend, and host to host): blocks of each size, iterations timed.
  std::vector<std::uint64_t> copy_sizes;
  std::uint64_t copy_blocks = 16;
  std::uint64_t copy_iterations = 32;
  std::uint64_t copy_warmup = 4;
  // io: one file of storage_file_bytes written, then read, sequentially in 1 MiB O_DIRECT IOs
  // (plus storage_read_sizes in the full sweep), then 4 KiB random reads for storage_randread_s.
  std::uint64_t storage_file_bytes = 256u << 20;
  std::vector<std::uint64_t> storage_read_sizes{};  // extra sequential read IO sizes (full only)
  std::uint64_t storage_randread_seconds = 3;
  unsigned storage_seq_qd = 8;
  unsigned storage_rand_qd = 32;
  // link: a loopback sweep link_min, link_min * link_step, … up to link_max; iterations per size.
  std::uint64_t link_min = 8;
  std::uint64_t link_max = 1u << 20;
  std::uint64_t link_step = 1u << 17;
  std::uint64_t link_iterations = 200;
  std::uint64_t link_warmup = 20;
  bool link_every_transport = false;  // full: the plain tcp transport too, as the baseline
  // p2p: bytes per execution and executions, where a backend has several devices.
  std::uint64_t p2p_bytes = 64u << 20;
  std::uint64_t p2p_executions = 8;
};

SurveyBudget survey_budget(SurveyLevel level);

struct SurveyPlan {
  SurveyLevel level = SurveyLevel::standard;
  // Where storage is measured: a directory given with --dir, or (none) a temporary directory made
  // in the working directory (same file system) and removed afterwards.
  std::optional<std::filesystem::path> directory;
  SurveyBudget budget = survey_budget(SurveyLevel::standard);
};

}  // namespace xb
