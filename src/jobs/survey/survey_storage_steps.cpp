// The survey's storage: one file written then read sequentially in 1 MiB O_DIRECT IOs, then read
// at random in 4 KiB IOs for a few seconds (IOPS), in the storage directory; through the io job.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "core/size.hpp"
#include "core/unique_fd.hpp"
#include "jobs/io/io_job.hpp"
#include "jobs/survey/survey_steps.hpp"
#include "storage/file_set.hpp"
#include "storage/io_engine.hpp"

namespace xb {
namespace {

constexpr std::uint64_t kSeqIo = 1u << 20, kRandIo = 4096;

nlohmann::json storage_json(const StorageInfo& s) {
  return {{"directory", s.directory.string()},
          {"fs_type", s.fs_type},
          {"mount_point", s.mount_point},
          {"source", s.source},
          {"block_device", s.block_device},
          {"rotational", s.rotational ? nlohmann::json(*s.rotational) : nlohmann::json(nullptr)},
          {"logical_block_bytes", s.logical_block_bytes}};
}

// Where the storage steps work: --dir as given (checked by the command), else a temporary
// directory in the working directory. Then whether O_DIRECT and the file fit there.
void prepare_storage(SurveyState& st) {
  try {
    const auto parent = st.plan.directory ? *st.plan.directory : std::filesystem::current_path();
    st.scratch.emplace(parent);
    st.storage_dir = st.scratch->path();
    st.storage = inspect_storage(st.storage_dir);
  } catch (const std::exception& e) {
    st.storage_unavailable = fmt::format("no directory to measure in ({}); give one with --dir", e.what());
    return;
  }
  // The write step's files stay for the read steps, held by no io run in between: registered for
  // removal on a signal for the survey's whole run (names as the io job's file set makes them).
  FileSetSpec files;
  files.directory = st.storage_dir;
  files.threads = 1;  // io_plan's
  for (const auto& f : file_set_paths(files)) st.scratch->holds(f);
  // O_DIRECT is refused (EINVAL) by tmpfs and some overlay/network file systems.
  const auto probe = st.storage_dir / ".o_direct_probe";
  st.scratch->holds(probe);
  UniqueFd fd(::open(probe.c_str(), O_CREAT | O_WRONLY | O_DIRECT, 0600));
  const int err = errno;
  ::unlink(probe.c_str());
  if (!fd.valid()) {
    st.storage_unavailable = fmt::format("{} ({}) does not take O_DIRECT files: {}; give a directory on a disk with --dir",
                                         st.storage_dir.parent_path().string(), st.storage->fs_type, std::strerror(err));
    return;
  }
  const std::uint64_t need = st.plan.budget.storage_file_bytes + (64u << 20);
  if (st.storage->free_bytes < need) {
    st.storage_unavailable = fmt::format("{} has {} free, the survey's file needs {}", st.storage_dir.parent_path().string(),
                                         format_bytes_human(st.storage->free_bytes), format_bytes_human(need));
  }
}

IoPlan io_plan(const SurveyState& st, IoPattern pattern, std::uint64_t io_bytes, unsigned qd) {
  return {.directory = st.storage_dir, .threads = 1, .pattern = pattern,
          .file_bytes = st.plan.budget.storage_file_bytes, .io_bytes = io_bytes, .engine = st.io_engine,
          .queue_depth = qd, .seconds = is_random(pattern) ? st.plan.budget.storage_randread_seconds : 0};
}

// One io step: the plan checked and run, its case annotated with the row and the storage.
std::vector<CaseResult> run_io_step(const SurveyState& st, const IoPlan& plan, const SurveyRow& row) {
  validate_io_plan(plan);
  JobContext job{.registry = &st.registry};
  CaseResult c = std::move(run(plan, job).front());
  annotate_survey_row(c, row);
  c.config["survey"]["storage"] = storage_json(*st.storage);
  return {std::move(c)};
}

std::vector<CaseResult> run_write(SurveyState& st, const SurveyRow& row) {
  if (!st.storage_unavailable.empty()) throw Unavailable(st.storage_unavailable);
  std::string why_not;
  // The engines in order of preference: the first the kernel allows is used for every step.
  for (std::string_view engine : io_engine_preference()) {
    st.io_engine = engine;
    try {
      auto cases = run_io_step(st, io_plan(st, IoPattern::write, kSeqIo, st.plan.budget.storage_seq_qd), row);
      st.file_written = true;
      return cases;
    } catch (const Unavailable& e) {
      why_not += fmt::format("{}{}: {}", why_not.empty() ? "" : "; ", engine, e.what());
    }
  }
  throw Unavailable(why_not);
}

std::vector<CaseResult> run_read(SurveyState& st, IoPattern pattern, std::uint64_t io_bytes, unsigned qd,
                                 const SurveyRow& row) {
  if (!st.storage_unavailable.empty()) throw Unavailable(st.storage_unavailable);
  if (!st.file_written) throw Unavailable("needs the file the storage write step makes, and that step did not");
  return run_io_step(st, io_plan(st, pattern, io_bytes, qd), row);
}

}  // namespace

void add_storage_steps(SurveyState& st, std::vector<SurveyStep>& steps) {
  prepare_storage(st);
  const SurveyBudget& b = st.plan.budget;
  SurveyState* s = &st;  // the steps run while the Survey (and its state) lives
  {
    const SurveyRow row{"storage write (O_DIRECT)", kSeqIo, "throughput"};
    steps.push_back({fmt::format("storage write {} of {}", format_size(kSeqIo), format_size(b.storage_file_bytes)),
                     "io", "survey_storage_write", row, [s, row] { return run_write(*s, row); }});
  }
  std::vector<std::uint64_t> read_sizes{kSeqIo};
  read_sizes.insert(read_sizes.end(), b.storage_read_sizes.begin(), b.storage_read_sizes.end());
  for (const std::uint64_t size : read_sizes) {
    const SurveyRow row{"storage read (O_DIRECT)", size, "throughput"};
    steps.push_back({fmt::format("storage read {}", format_size(size)), "io",
                     fmt::format("survey_storage_read_{}", size), row,
                     [s, row, size, qd = b.storage_seq_qd] { return run_read(*s, IoPattern::read, size, qd, row); }});
  }
  const SurveyRow row{"storage randread (O_DIRECT)", kRandIo, "iops"};
  steps.push_back({fmt::format("storage randread {} for {} s", format_size(kRandIo), b.storage_randread_seconds), "io",
                   "survey_storage_randread", row,
                   [s, row, qd = b.storage_rand_qd] { return run_read(*s, IoPattern::randread, kRandIo, qd, row); }});
}

}  // namespace xb
