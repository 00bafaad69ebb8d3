// `xferbench xfer server|client`: the native command line of the xfer job (one endpoint's memory
// into or out of another's, over UCX or TCP).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <span>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/plan_options.hpp"
#include "cli/job_command.hpp"
#include "cli/ready_file.hpp"
#include "cli/session_caps_flags.hpp"
#include "cli/token_flags.hpp"
#include "core/error.hpp"
#include "core/split.hpp"
#include "jobs/xfer/xfer_job.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// What the plan does not hold as given: the role, the addresses, the token and the caps.
struct XferArgs {
  std::string role, listen = "127.0.0.1", peer, token, ready_file, token_file;
  std::uint16_t data_port = 0;
  SessionCapFlags caps;
  bool no_latency = false;
};

// The flags that only one role takes, so a misplaced one is named instead of silently ignored.
void refuse_other_role_flags(const CLI::App& app, XferRole role) {
  static const char* const kClientOnly[] = {"--peer", "--mode",   "--op",    "--block",      "--total", "--pool",
                                            "--pool-chunk", "--iters", "--warmup", "--no-latency", "--verify",
                                            "--judge", "--expect", "--expect-rule"};
  static const char* const kServerOnly[] = {"--listen", "--data-port", "--ready-file", "--max-exposed", "--max-regions",
                                            "--clients"};
  const bool server = role == XferRole::server;
  refuse_given(app, server ? std::span<const char* const>(kClientOnly) : kServerOnly,
               fmt::format("a {} flag (the {} {})", server ? "client" : "server", to_string(role),
                           server ? "learns mode and sizes from the client" : "connects with --peer HOST:PORT"));
}

// --peer HOST:PORT[,HOST:PORT…]: the servers a client moves to at once (the default port where
// none is given).
std::vector<SocketAddress> xfer_peers(const std::string& text) {
  std::vector<SocketAddress> peers;
  for (const std::string_view one : split_on(text, ',')) {
    SocketAddress a = parse_address(one, "--peer", false);
    if (a.port == 0) a.port = kXferDefaultControlPort;
    peers.push_back(std::move(a));
  }
  if (peers.size() > kXferMaxFanOut) {
    throw UsageError(fmt::format("--peer: {} servers, at most {} at once", peers.size(), kXferMaxFanOut));
  }
  return peers;
}

XferRole xfer_role(const std::string& role) {
  if (role == "server") return XferRole::server;
  if (role == "client") return XferRole::client;
  if (role.empty()) throw UsageError("xfer: expected server or client first (xferbench xfer server|client …)");
  throw UsageError(fmt::format("xfer {}: expected server or client", role));
}

// What only the role's plan holds, from the flags' values.
void settle_plan(const XferArgs& a, XferPlan& p) {
  if (p.transport.empty()) p.transport = default_transport_name();
  p.token = a.token.empty() ? default_session_token() : a.token;
  if (p.role == XferRole::server) {
    p.control = parse_listen_address(a.listen, "--listen", kXferDefaultControlPort);
    p.token = server_session_token(a.token, p.control.host, "--listen");
    p.data = SocketAddress{p.control.host, a.data_port};
    p.caps = parse_session_caps(a.caps);
    return;
  }
  if (a.peer.empty()) throw UsageError("--peer: required for a client, the server's HOST:PORT");
  p.servers = xfer_peers(a.peer);
  p.control = p.servers.front();
  p.latency = !a.no_latency;
}

int run_xfer_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Move one endpoint's memory into (write) or out of (read) another's over UCX or TCP, per block size",
               "xfer"};
  PlanOptions o(app);
  XferArgs a;
  XferPlan p;
  o.text("role", a.role, "server or client");
  o.text("--listen", a.listen, "server: control address HOST[:PORT] (default 127.0.0.1:20000; port 0: any)");
  o.port("--data-port", a.data_port, "0", "server: the transport's port on the --listen host (default 0: any, announced)");
  o.text("--ready-file", a.ready_file, "server: write the bound control and data addresses here once listening");
  add_session_cap_flags(app, a.caps);
  o.text("--peer", a.peer, "client: the server's control address HOST:PORT; a list A,B,…: every server at once");
  o.count("--clients", p.clients, "1", 1, kXferMaxFanOut, "server: clients served at once on --listen (default 1)");
  o.text("--transport", p.transport, "ucx or tcp (default ucx where built)");
  o.choice("--mode", p.mode, "h2h", xfer_mode_from, "d2d, h2d, d2h or h2h (client memory 2 server memory)",
           "client memory 2 server memory: d2d, h2d, d2h or h2h (default h2h)");
  o.choice("--op", p.op, "write", xfer_op_from, "write (client into server) or read",
           "write (client into server, default) or read (server into client)");
  o.later("--block", "1M,2M,4M,8M", "block sizes: a list 1M,2M or a doubling range 1M:8M (default 1M,2M,4M,8M)",
          [&](std::string_view v, std::string_view f) { p.blocks = parse_block_sizes(v, f); });
  o.size("--total", p.total, "128M", "bytes moved per block size: total/block transfers (default 128M)");
  o.flag("--pool", p.pool, "move the data through a registered staging pool (client memory unregistered)");
  o.size("--pool-chunk", p.pool_chunk, "4M", "bytes per pool slot (default 4M; two slots)");
  o.seconds("--wait", p.wait, "20", 1, 24 * 3600, "seconds the side started first waits for its peer (default 20)");
  o.text("--token", a.token, "shared token (default $XFERBENCH_TOKEN or the built-in one)");
  add_token_file_flag(app, a.token_file);
  o.text("--backend", p.backend, "device backend (default: an accelerator where there is one, else cpu)");
  o.count("--device", p.device, "0", 0, 1023, "device index (default 0)");
  o.count("--iters", p.iters, "1", 1, 1'000'000, "client: timed passes per block size (default 1)");
  o.count("--warmup", p.warmup, "1", 0, 1'000'000, "client: untimed passes before them (default 1)");
  o.flag("--no-latency", a.no_latency, "client: skip the per-transfer latency pass");
  o.flag("--verify", p.verify, "client: check the data the timed passes moved");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  resolve_token_file(a.token, a.token_file);
  p.role = xfer_role(a.role);
  refuse_other_role_flags(app, p.role);  // a flag of the other role is named before any value is read
  o.convert();
  settle_plan(a, p);
  const XferPlan& plan = p;
  flags.load_expectations();  // a client's flags
  validate_xfer_plan(plan);
  check_ready_file_path(a.ready_file);
  flags.resolve();
  std::string why_cpu;
  Backend& backend = ctx.registry.choose(plan.backend, &why_cpu);
  check_xfer_memory(plan, backend.capabilities().device_memory_in_host_ram);
  const bool device_memory = plan.role == XferRole::server || plan.mode.local == RegionPlace::device;
  if (!why_cpu.empty() && device_memory && !flags.out.quiet) {
    ctx.err << fmt::format("xferbench xfer: device memory is a cpu backend arena ({})\n", why_cpu);
  }

  if (plan.role == XferRole::client) {
    // The client only: a server already says on stderr that it waits, and then for whom. A client
    // keeps the block sizes measured when the server dies or Ctrl-C comes.
    return run_job_command(ctx, flags, &backend, [&](JobContext& job) { return run(plan, job); });
  }
  ReadyFile ready(a.ready_file);
  // A server keeps each client's case as its session ends; Ctrl-C releases its exposed memory and
  // device (an NPU's) as the job unwinds, then delivers the cases kept, before the process dies.
  return run_job_command(ctx, flags, &backend, [&](JobContext& job) {
    job.log = &ctx.err;
    job.on_listening = [&](const SocketAddress& control, const SocketAddress& data) {
      ready.write(control, data);
      if (flags.out.quiet) return;
      ctx.err << fmt::format("xferbench xfer: server on {} (transport {} on {}), waiting up to {} s for {}\n",
                             control.to_string(), plan.transport, data.to_string(),
                             std::chrono::duration_cast<std::chrono::seconds>(plan.wait).count(),
                             plan.clients == 1 ? std::string("a client") : fmt::format("{} clients", plan.clients))
              << std::flush;
    };
    return run(plan, job);
  });
}

}  // namespace

extern const Command kXferCommand{"xfer", "one endpoint's memory into another's over UCX or TCP (server|client)",
                                  run_xfer_command};

}  // namespace xb
