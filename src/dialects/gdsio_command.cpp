// `xferbench gdsio …` (and a link named gdsio): parse the options or a job file, run the io job,
// print gdsio's line; with -V on a write, gdsio's "Verifying data" and the verified read-back run's
// line. A job file's jobs run at once, one io run each, and each prints its line in the file's order.
#include <fmt/format.h>

#include <exception>
#include <optional>
#include <ostream>
#include <thread>

#include "cli/command.hpp"
#include "cli/job_progress.hpp"
#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "core/whole_file.hpp"
#include "dialects/gdsio.hpp"
#include "jobs/io/io_config.hpp"
#include "jobs/io/io_job.hpp"
#include "storage/io_engine.hpp"

namespace xb {
namespace {

struct PreparedJob {
  GdsioRequest req;
  Backend* backend = nullptr;
  std::string why_cpu;
  BackendRegistry* registry = nullptr;

  CaseResult measure(const IoPlan& plan) const {
    JobContext job{.registry = registry, .backend = backend};
    return run(plan, job).front();
  }
};

// Everything checked before anything runs: a job file's bad second job must not follow a first
// job's files.
PreparedJob prepare(GdsioRequest req, CommandContext& ctx) {
  PreparedJob j{std::move(req), nullptr, {}, &ctx.registry};
  // The device types move data to and from device memory: the preferred backend's (an accelerator
  // where there is one; here the cpu backend's arenas, which have no GPU-direct storage).
  if (uses_device(j.req.plan.transfer)) j.backend = &ctx.registry.preferred(&j.why_cpu);
  j.req.plan.engine = best_io_engine();
  worded_by(gdsio_flag_words(), [&] { validate_io_plan(j.req.plan, j.backend); });
  if (!j.req.missing.empty()) throw Unavailable(j.req.missing);
  if (!j.why_cpu.empty() && is_bounce(j.req.plan.transfer)) {
    j.req.notes.push_back(fmt::format("gdsio: no GPU found ({}); device memory is a cpu backend arena", j.why_cpu));
  }
  return j;
}

// One job's lines: its run, and with -V on a write the read-back.
std::string run_job(PreparedJob& j) {
  std::string out;
  const CaseResult result = j.measure(j.req.plan);
  // gdsio's line has no place for how GPUD moved the data; a compat-mode run says so on stderr
  // (gdsio users read GPUD figures as GPUDirect Storage figures); `xferbench io` records it in its result.
  if (const IoConfig config = result.config.get<IoConfig>();
      config.device && config.device->direct_storage_mode && config.device->direct_storage_mode->starts_with("compat")) {
    j.req.notes.push_back(fmt::format("gdsio: GPUD ran through cuFile in {}", *config.device->direct_storage_mode));
  }
  out += render_gdsio(result);
  if (j.req.verify_after_write) {
    out += "Verifying data\n";
    out += render_gdsio(j.measure(gdsio_readback_plan(j.req.plan)));
  }
  return out;
}

std::vector<GdsioRequest> read_job_file(const std::string& path) {
  const std::optional<std::string> text = read_whole_file(path);
  if (!text) throw UsageError(fmt::format("{}: the job file cannot be read", path));
  return parse_gdsio_job_file(*text, path);
}

int run_gdsio(const std::vector<std::string>& args, CommandContext& ctx) {
  std::vector<GdsioRequest> requests;
  if (is_gdsio_job_file(args)) {
    requests = read_job_file(args[0]);
  } else {
    requests.push_back(parse_gdsio(args));
  }
  std::vector<PreparedJob> jobs;
  for (auto& r : requests) jobs.push_back(prepare(std::move(r), ctx));

  Progress progress = job_progress(false, false);
  std::vector<std::string> lines(jobs.size());
  {
    const ProgressStep step(&progress, "gdsio: running…");
    if (jobs.size() == 1) {
      lines[0] = run_job(jobs[0]);
    } else {
      // gdsio runs a job file's jobs side by side: one io run per job, each on its own thread.
      std::vector<std::exception_ptr> errors(jobs.size());
      {
        std::vector<std::jthread> threads;
        for (std::size_t i = 0; i < jobs.size(); ++i) {
          threads.emplace_back([&, i] {
            try {
              lines[i] = run_job(jobs[i]);
            } catch (...) {
              errors[i] = std::current_exception();
            }
          });
        }
      }
      for (const auto& e : errors) {
        if (e) std::rethrow_exception(e);
      }
    }
  }
  for (const auto& l : lines) ctx.out << l;
  ctx.out << std::flush;
  // Notes after gdsio's own output, so a script reading both streams by line finds gdsio's lines first.
  for (const auto& j : jobs) {
    for (const auto& n : j.req.notes) ctx.err << n << '\n';
  }
  return kExitOk;
}

}  // namespace

extern const Command kGdsioCommand{"gdsio", "NVIDIA gdsio dialect (io job: its flags, job files, transfer types and line)",
                                   run_gdsio};

}  // namespace xb
