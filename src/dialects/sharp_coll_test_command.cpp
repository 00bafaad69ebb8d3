// `xferbench sharp_coll_test …` (and a link named sharp_coll_test): parse, set the UCX device -d
// names, run the link job on loopback, print sharp_coll_test's header and one row per size as each
// size completes.
#include <fmt/format.h>
#include <stdlib.h>

#include <ostream>

#include "cli/command.hpp"
#include "core/error.hpp"
#include "dialects/sharp_coll_test.hpp"
#include "jobs/link/link_job.hpp"

namespace xb {
namespace {

int run_sharp_coll_test(const std::vector<std::string>& args, CommandContext& ctx) {
  const SharpCollTestRequest req = parse_sharp_coll_test(args, net_device_exists_here, rdma_devices_here());
  // UCX reads its configuration from the environment when a transport is made; this is the one
  // place -d can reach it, before any transport or thread exists.
  for (const EnvSetting& e : sharp_coll_test_ucx_environment(req)) {
    if (setenv(e.name.c_str(), e.value.c_str(), e.overwrite ? 1 : 0) != 0) throw_errno("setenv(" + e.name + ")");
  }
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  check_link_memory(req.plan, backend.capabilities().device_memory_in_host_ram, sharp_coll_test_flag_names());
  if (!why_cpu.empty() && (req.plan.src == RegionPlace::device || req.plan.dst == RegionPlace::device)) {
    ctx.err << fmt::format("sharp_coll_test: no GPU found ({}); cuda memory is a cpu backend arena\n", why_cpu);
  }
  ctx.out << render_sharp_coll_test_header(req.plan) << std::flush;
  run_link(req.plan, backend, [&](const CaseResult& r) { ctx.out << render_sharp_coll_test_row(r) << std::flush; });
  return kExitOk;
}

}  // namespace

extern const Command kSharpCollTestCommand{"sharp_coll_test",
                                           "NVIDIA sharp_coll_test dialect (link job: its flags, header and table)",
                                           run_sharp_coll_test};

}  // namespace xb
