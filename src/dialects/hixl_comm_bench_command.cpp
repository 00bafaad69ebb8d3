// `xferbench hixl_comm_bench --role=… …` (and a link named hixl_comm_bench): parse, run the xfer
// job's server (--peer_count initiators at once) or client (a worker per --remote_engine), print
// the [INFO] line and per worker its [RESULT] summary, write the initiator's CSV and JSONL rows to
// --output_dir/comm_result_<pid>.csv|.jsonl (appended, the header when the file is new).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>

#include "cli/command.hpp"
#include "cli/stopping_run.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "dialects/hixl.hpp"
#include "dialects/hixl_comm_bench.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "jobs/xfer/xfer_job.hpp"
#include "transport/net_devices.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// Appends `rows` to `path` (with `header` first where the file is new), the whole file written
// anew through a temporary: a run killed half-way leaves the old file, never half a row.
void append_rows(const std::filesystem::path& path, const std::string& header, const std::vector<std::string>& rows) {
  std::string text;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    std::ifstream in(path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else if (!header.empty()) {
    text = header + "\n";
  }
  for (const std::string& r : rows) text += r + "\n";
  write_file_atomically(path.string(), text);
}

int run_hixl_comm_bench(const std::vector<std::string>& args, CommandContext& ctx) {
  HixlCommBenchRequest req = parse_hixl_comm_bench(args);
  XferPlan& plan = req.plan;
  HixlSettings path;
  path.transport = plan.transport = default_transport_name();
  path.roce = req.network_path;
  // UCX reads UCX_TLS when the transport is made: set before any exists (never over the user's).
  if (const std::string tls = hixl_ucx_tls(path, rdma_devices_here()); !tls.empty()) {
    if (setenv("UCX_TLS", tls.c_str(), 0) != 0) throw_errno("setenv(UCX_TLS)");
  }
  const bool target = plan.role == XferRole::server;
  // A target others can reach never runs on the public built-in token (XFERBENCH_TOKEN on both sides).
  plan.token = target ? server_session_token("", plan.control.host, "--local_engine", "") : default_session_token();
  validate_xfer_plan(plan);
  Backend& backend = ctx.registry.preferred();
  if (!target) {
    XferPlan all = plan;  // one buffer of transfer_size per remote
    all.total *= req.remotes.size();
    check_xfer_memory(all, backend.capabilities().device_memory_in_host_ram);
    if (const std::string why = why_not_writable((req.output_dir / "comm_result.csv").string());
        !why.empty() && std::filesystem::exists(req.output_dir)) {
      throw UsageError(fmt::format("--output_dir={}: {}", req.output_dir.string(), why));
    }
  }
  ctx.out << render_hixl_comm_start(req) << std::flush;
  if (target) {
    // Ctrl-C releases the target's exposed memory and device before the process dies.
    const std::vector<CaseResult> served = run_stopping_on_interrupt(ctx, [&](const std::stop_token& stop) {
      JobContext job{.registry = &ctx.registry, .backend = &backend, .log = &ctx.err, .stop = stop};
      return run(plan, job);
    });
    ctx.out << fmt::format("[INFO] target done: served {} initiator(s)\n", served.size()) << std::flush;
    return kExitOk;
  }
  XferPlan client = plan;
  client.servers = req.remotes;
  // Ctrl-C stops the passes and releases the devices before the process dies (cli/stopping_run).
  const std::vector<CaseResult> cases = run_stopping_on_interrupt(ctx, [&](const std::stop_token& stop) {
    JobContext job{.registry = &ctx.registry, .backend = &backend, .stop = stop};
    return run(client, job);
  });
  std::map<std::size_t, std::vector<CaseResult>> by_remote;
  for (const CaseResult& c : cases) by_remote[c.config.get<XferClientConfig>().server_index.value_or(0)].push_back(c);
  std::vector<std::string> csv, jsonl;
  for (const auto& [remote, mine] : by_remote) {
    ctx.out << render_hixl_comm_summary(mine, static_cast<int>(remote), req.remotes.size() > 1);
    for (const CaseResult& c : mine) {
      for (auto& row : hixl_comm_csv_rows(req, c)) csv.push_back(std::move(row));
      for (auto& row : hixl_comm_jsonl_rows(req, c)) jsonl.push_back(std::move(row));
    }
  }
  ctx.out << std::flush;
  std::filesystem::create_directories(req.output_dir);
  const std::string stem = fmt::format("comm_result_{}", getpid());
  append_rows(req.output_dir / (stem + ".csv"), kHixlCommCsvHeader, csv);
  append_rows(req.output_dir / (stem + ".jsonl"), "", jsonl);
  return kExitOk;
}

}  // namespace

extern const Command kHixlCommBenchCommand{"hixl_comm_bench",
                                           "hicann/hixl hixl_comm_bench dialect (xfer job: key=value, CSV rows)",
                                           run_hixl_comm_bench};

}  // namespace xb
