// `xferbench hixl …` (and a link named hixl): parse HIXL's seven arguments, run the xfer job's
// client or server, print HIXL's line per block size as each completes.
#include <fmt/format.h>

#include <cstdlib>
#include <optional>
#include <string_view>
#include <ostream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/stopping_run.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/plan_error.hpp"
#include "core/size.hpp"
#include "dialects/hixl.hpp"
#include "jobs/xfer/xfer_job.hpp"
#include "transport/net_devices.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// HIXL's source constants, settable here through the environment instead of a rebuild.
HixlSettings settings_from_environment() {
  HixlSettings s;
  if (const char* total = std::getenv("XFERBENCH_HIXL_TOTAL"); total != nullptr && *total != '\0') {
    s.total = parse_size(total, "XFERBENCH_HIXL_TOTAL (kTransferMemSize)");
  }
  if (const char* passes = std::getenv("XFERBENCH_HIXL_PASSES"); passes != nullptr && *passes != '\0') {
    s.passes = static_cast<unsigned>(parse_count(passes, "XFERBENCH_HIXL_PASSES (timed passes per block size)", 1, 1000));
  }
  if (const char* wait = std::getenv("XFERBENCH_HIXL_WAIT"); wait != nullptr && *wait != '\0') {
    s.wait = std::chrono::seconds(parse_count(wait, "XFERBENCH_HIXL_WAIT (kWaitTransTime, seconds)", 1, 24 * 3600));
  }
  const char* transport = std::getenv("XFERBENCH_HIXL_TRANSPORT");
  if (transport != nullptr && *transport != '\0') {
    s.transport = transport;
  } else {
    s.transport = default_transport_name();
  }
  s.token = default_session_token();
  const char* roce = std::getenv("HCCL_INTRA_ROCE_ENABLE");
  s.roce = roce != nullptr && std::string_view(roce) == "1";
  return s;
}

int run_hixl(const std::vector<std::string>& args, CommandContext& ctx) {
  HixlSettings settings = settings_from_environment();
  HixlForm form;
  XferPlan plan = parse_hixl(args, settings, &form);
  // HIXL-CS's protocol roce is the network path, as HCCL_INTRA_ROCE_ENABLE=1 is for the seven-argument form.
  const std::string network_reason = form.network_path ? "protocol roce"
                                     : settings.roce   ? "HCCL_INTRA_ROCE_ENABLE=1"
                                                       : "";
  settings.roce = !network_reason.empty();
  // UCX reads UCX_TLS when the transport is made: set before any exists (never over the user's).
  if (const std::string tls = hixl_ucx_tls(settings, rdma_devices_here()); !tls.empty()) {
    if (setenv("UCX_TLS", tls.c_str(), 0) != 0) throw_errno("setenv(UCX_TLS)");
  }
  // A server others can reach never runs on the public built-in token: XFERBENCH_TOKEN (the
  // benchmark has no token argument) on both sides, or a loopback local_engine.
  if (plan.role == XferRole::server) plan.token = server_session_token("", plan.data.host, "local_engine", "");
  worded_by(hixl_flag_words(), [&] { validate_xfer_plan(plan); });
  // HIXL prints lines only; the passes behind each median (their spread) go to a result document
  // where XFERBENCH_HIXL_JSON names one, checked before anything runs.
  const char* json_env = std::getenv("XFERBENCH_HIXL_JSON");
  const std::string json_path = json_env == nullptr ? "" : json_env;
  if (const std::string why = json_path.empty() ? "" : why_not_writable(json_path); !why.empty()) {
    throw UsageError(fmt::format("XFERBENCH_HIXL_JSON={}: {}", json_path, why));
  }
  Backend& backend = ctx.registry.preferred();
  worded_by(hixl_flag_words(), [&] { check_xfer_memory(plan, backend.capabilities().device_memory_in_host_ram); });
  if (plan.role == XferRole::client) {
    std::optional<CaseResult> last;
    // Ctrl-C stops the passes and releases the devices before the process dies (cli/stopping_run).
    const std::vector<CaseResult> cases = run_stopping_on_interrupt(ctx, [&](const std::stop_token& stop) {
      JobContext job{.registry = &ctx.registry,
                     .backend = &backend,
                     .on_case =
                         [&](const CaseResult& c) {
                           ctx.out << render_hixl_line(c) << std::flush;
                           last = c;
                         },
                     .stop = stop};
      return run(plan, job);
    });
    if (!json_path.empty()) {
      ResultDocument doc = new_result_document(ctx);
      doc.cases = cases;
      deliver(doc, OutputOptions{.format = "json", .output = json_path, .quiet = false, .units = ""}, ctx);  // as `--format json --output PATH` writes it
    }
    // After HIXL's own lines: which path moved the data, as the transport reports its lanes.
    if (last) ctx.err << render_hixl_path_note(*last, network_reason) << std::flush;
    return kExitOk;
  }
  // HIXL's server serves one client; Ctrl-C releases its exposed memory and device first.
  const std::vector<CaseResult> served = run_stopping_on_interrupt(ctx, [&](const std::stop_token& stop) {
    JobContext job{.registry = &ctx.registry,
                   .backend = &backend,
                   .log = &ctx.err,
                   .on_listening = [&](const SocketAddress& control, const SocketAddress& data) {
                     ctx.out << render_hixl_server_ready(control.port, data.to_string()) << std::flush;
                   },
                   .stop = stop};
    return run(plan, job);
  });
  ctx.out << render_hixl_server_done(served.front()) << std::flush;
  return kExitOk;
}

}  // namespace

extern const Command kHixlCommand{"hixl", "Huawei HIXL benchmark dialect (xfer job: its arguments and line)", run_hixl};

}  // namespace xb
