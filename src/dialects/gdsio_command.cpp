// `xferbench gdsio …` (and a link named gdsio): parse, run the io job, print gdsio's line; with -V
// on a write, gdsio's "Verifying data" and the verified read-back run's line.
#include <fmt/format.h>

#include <ostream>

#include "cli/command.hpp"
#include "cli/job_progress.hpp"
#include "dialects/gdsio.hpp"
#include "jobs/io/io_job.hpp"

namespace xb {
namespace {

int run_gdsio(const std::vector<std::string>& args, CommandContext& ctx) {
  GdsioRequest req = parse_gdsio(args);
  // CPU_GPU and GPUD move data to and from device memory: the preferred backend's (an accelerator
  // where there is one; here the cpu backend's arenas, which have no GPU-direct storage).
  Backend* backend = nullptr;
  std::string why_cpu;
  if (req.plan.transfer != IoTransfer::cpu) backend = &ctx.registry.preferred(&why_cpu);
  req.plan.engine = best_gdsio_engine();
  validate_io_plan(req.plan, gdsio_flag_names(), backend);
  if (!why_cpu.empty() && req.plan.transfer == IoTransfer::cpu_gpu) {
    ctx.err << fmt::format("gdsio: no GPU found ({}); device memory is a cpu backend arena\n", why_cpu);
  }
  const auto run = [&](const IoPlan& plan, std::string_view what) {
    Progress progress = job_progress(false, false);
    Progress::Step step(progress, fmt::format("gdsio: {}…", what));
    return run_io(plan, backend);
  };
  // gdsio's line has no place for how GPUD moved the data; a compat-mode run says so on stderr
  // (gdsio users read GPUD figures as GPUDirect Storage figures); `xferbench io` records it in its result.
  const CaseResult result = run(req.plan, "running");
  if (const auto mode = result.config.find("direct_storage_mode");
      mode != result.config.end() && mode->is_string() && mode->get<std::string>().starts_with("compat")) {
    ctx.err << fmt::format("gdsio: GPUD ran through cuFile in {}\n", mode->get<std::string>());
  }
  ctx.out << render_gdsio(result) << std::flush;
  if (req.verify_after_write) {
    ctx.out << "Verifying data\n" << std::flush;
    ctx.out << render_gdsio(run(gdsio_readback_plan(req.plan), "verifying")) << std::flush;
  }
  return kExitOk;
}

}  // namespace

extern const Command kGdsioCommand{"gdsio", "NVIDIA gdsio dialect (io job: its flags, transfer types and line)",
                                   run_gdsio};

}  // namespace xb
