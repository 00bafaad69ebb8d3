// `xferbench xfer server|client`: the native command line of the xfer job (one endpoint's memory
// into or out of another's, over UCX or TCP).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/ready_file.hpp"
#include "cli/session_caps_flags.hpp"
#include "cli/token_flags.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/xfer/xfer_job.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

struct XferArgs {
  std::string role, listen = "127.0.0.1", data_port = "0", peer, transport, mode = "h2h", op = "write",
              block = "1M,2M,4M,8M", total = "128M", pool_chunk = "4M", wait = "20", token, backend, device = "0",
              iters = "1", warmup = "1", ready_file, clients = "1";
  SessionCapFlags caps;
  std::string token_file;
  bool pool = false, verify = false, no_latency = false;
};

// The flags that only one role takes, so a misplaced one is named instead of silently ignored.
void refuse_other_role_flags(const CLI::App& app, XferRole role) {
  static const char* const kClientOnly[] = {"--peer", "--mode",   "--op",    "--block",      "--total", "--pool",
                                            "--pool-chunk", "--iters", "--warmup", "--no-latency", "--verify",
                                            "--judge", "--expect", "--expect-rule"};
  static const char* const kServerOnly[] = {"--listen", "--data-port", "--ready-file", "--max-exposed", "--max-regions",
                                            "--clients"};
  const auto check = [&](const auto& flags, std::string_view owner) {
    for (const char* f : flags) {
      if (app.count(f) > 0) {
        throw UsageError(fmt::format("{}: a {} flag (the {} {})", f, owner, to_string(role),
                                     role == XferRole::server ? "learns mode and sizes from the client"
                                                              : "connects with --peer HOST:PORT"));
      }
    }
  };
  if (role == XferRole::server) check(kClientOnly, "client");
  else check(kServerOnly, "server");
}

// Whether HOST[:PORT] text names a port: "[v6]:port", or one colon (a bare IPv6 address has more).
bool names_port(std::string_view text) {
  if (!text.empty() && text.front() == '[') return text.find("]:") != std::string_view::npos;
  return std::count(text.begin(), text.end(), ':') == 1;
}

// --peer HOST:PORT[,HOST:PORT…]: the servers a client moves to at once (the default port where
// none is given).
std::vector<SocketAddress> xfer_peers(const std::string& text) {
  std::vector<SocketAddress> peers;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    SocketAddress a = parse_address(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start),
                                    "--peer", false);
    if (a.port == 0) a.port = kXferDefaultControlPort;
    peers.push_back(std::move(a));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (peers.size() > kXferMaxFanOut) {
    throw UsageError(fmt::format("--peer: {} servers, at most {} at once", peers.size(), kXferMaxFanOut));
  }
  return peers;
}

XferPlan to_plan(const XferArgs& a, const CLI::App& app) {
  XferPlan p;
  if (a.role == "server") p.role = XferRole::server;
  else if (a.role == "client") p.role = XferRole::client;
  else if (a.role.empty()) throw UsageError("xfer: expected server or client first (xferbench xfer server|client …)");
  else throw UsageError(fmt::format("xfer {}: expected server or client", a.role));
  refuse_other_role_flags(app, p.role);

  p.transport = a.transport.empty() ? default_transport_name() : a.transport;
  p.token = a.token.empty() ? default_session_token() : a.token;
  p.wait = std::chrono::seconds(parse_count(a.wait, "--wait", 1, 24 * 3600));
  p.backend = a.backend;
  p.device = static_cast<int>(parse_count(a.device, "--device", 0, 1023));
  if (p.role == XferRole::server) {
    p.control = parse_address(a.listen, "--listen", false, true);
    if (!names_port(a.listen)) p.control.port = kXferDefaultControlPort;  // ":0" asks for any port
    p.token = server_session_token(a.token, p.control.host, "--listen");
    p.data = SocketAddress{p.control.host, parse_port(a.data_port, "--data-port", true)};
    p.caps = parse_session_caps(a.caps);
    p.clients = static_cast<unsigned>(parse_count(a.clients, "--clients", 1, kXferMaxFanOut));
    return p;
  }
  if (a.peer.empty()) throw UsageError("--peer: required for a client, the server's HOST:PORT");
  p.control = xfer_peers(a.peer).front();
  const auto mode = xfer_mode_from(a.mode);
  if (!mode) throw UsageError(fmt::format("--mode {}: expected d2d, h2d, d2h or h2h (client memory 2 server memory)", a.mode));
  p.mode = *mode;
  const auto op = xfer_op_from(a.op);
  if (!op) throw UsageError(fmt::format("--op {}: expected write (client into server) or read", a.op));
  p.op = *op;
  p.blocks = parse_block_sizes(a.block, "--block");
  p.total = parse_size(a.total, "--total");
  p.pool = a.pool;
  p.pool_chunk = parse_size(a.pool_chunk, "--pool-chunk");
  p.iters = static_cast<unsigned>(parse_count(a.iters, "--iters", 1, 1'000'000));
  p.warmup = static_cast<unsigned>(parse_count(a.warmup, "--warmup", 0, 1'000'000));
  p.latency = !a.no_latency;
  p.verify = a.verify;
  return p;
}

int run_xfer_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Move one endpoint's memory into (write) or out of (read) another's over UCX or TCP, per block size",
               "xfer"};
  XferArgs a;
  app.add_option("role", a.role, "server or client");
  app.add_option("--listen", a.listen, "server: control address HOST[:PORT] (default 127.0.0.1:20000; port 0: any)");
  app.add_option("--data-port", a.data_port, "server: the transport's port on the --listen host (default 0: any, announced)");
  app.add_option("--ready-file", a.ready_file, "server: write the bound control and data addresses here once listening");
  add_session_cap_flags(app, a.caps);
  app.add_option("--peer", a.peer, "client: the server's control address HOST:PORT; a list A,B,…: every server at once");
  app.add_option("--clients", a.clients, "server: clients served at once on --listen (default 1)");
  app.add_option("--transport", a.transport, "ucx or tcp (default ucx where built)");
  app.add_option("--mode", a.mode, "client memory 2 server memory: d2d, h2d, d2h or h2h (default h2h)");
  app.add_option("--op", a.op, "write (client into server, default) or read (server into client)");
  app.add_option("--block", a.block, "block sizes: a list 1M,2M or a doubling range 1M:8M (default 1M,2M,4M,8M)");
  app.add_option("--total", a.total, "bytes moved per block size: total/block transfers (default 128M)");
  app.add_flag("--pool", a.pool, "move the data through a registered staging pool (client memory unregistered)");
  app.add_option("--pool-chunk", a.pool_chunk, "bytes per pool slot (default 4M; two slots)");
  app.add_option("--wait", a.wait, "seconds the side started first waits for its peer (default 20)");
  app.add_option("--token", a.token, "shared token (default $XFERBENCH_TOKEN or the built-in one)");
  add_token_file_flag(app, a.token_file);
  app.add_option("--backend", a.backend, "device backend (default: an accelerator where there is one, else cpu)");
  app.add_option("--device", a.device, "device index (default 0)");
  app.add_option("--iters", a.iters, "client: timed passes per block size (default 1)");
  app.add_option("--warmup", a.warmup, "client: untimed passes before them (default 1)");
  app.add_flag("--no-latency", a.no_latency, "client: skip the per-transfer latency pass");
  app.add_flag("--verify", a.verify, "client: check the data the timed passes moved");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  resolve_token_file(a.token, a.token_file);

  const XferPlan plan = to_plan(a, app);
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
    XferPlan client = plan;
    client.servers = xfer_peers(a.peer);
    return run_job_command(ctx, flags, &backend, [&](JobContext& job) { return run(client, job); });
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
