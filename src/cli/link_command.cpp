// `xferbench link`: one link swept over message sizes (the link job), against a `link --listen`
// server (--peer) or a server thread of this process (--loopback, the default); `--listen` runs
// that server.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>
#include <tuple>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/output.hpp"
#include "cli/plan_options.hpp"
#include "cli/ready_file.hpp"
#include "cli/session_caps_flags.hpp"
#include "cli/token_flags.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/link/link_job.hpp"
#include "jobs/link/link_server.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// What the plans do not hold as given: the addresses, the token and the server's caps.
struct LinkArgs {
  std::string peer, listen, ready_file, token, token_file;
  std::uint16_t data_port = 0;
  bool loopback = false;
  SessionCapFlags caps;
};

// The flags only a client (the measuring side) takes: a server learns sizes and memory from it.
constexpr const char* kClientOnly[] = {"--peer", "--loopback", "--size", "--step", "--iters", "--warmup",
                                       "--mem", "--check", "--pingpong", "--judge", "--expect", "--expect-rule"};
constexpr const char* kServerOnly[] = {"--data-port", "--ready-file", "--max-exposed", "--max-regions"};

void settle_plan(const LinkArgs& a, const CLI::App& app, LinkPlan& p) {
  refuse_given(app, kServerOnly, "only a server (--listen) takes it");
  if (!a.peer.empty() && a.loopback) {
    throw UsageError("--loopback: not with --peer (the peer is either a --listen server or this process)");
  }
  if (!a.peer.empty()) {
    p.peer = parse_address(a.peer, "--peer", false);
    if (p.peer->port == 0) p.peer->port = kLinkDefaultControlPort;
  }
  p.token = a.token.empty() ? default_session_token() : a.token;
  validate_link_plan(p);
}

// The server takes the client's terms it shares (transport, wait, device) from the client's plan.
LinkServerPlan to_server_plan(const LinkArgs& a, const LinkPlan& terms) {
  LinkServerPlan p;
  p.control = parse_listen_address(a.listen.empty() ? "127.0.0.1" : a.listen, "--listen", kLinkDefaultControlPort);
  p.data = SocketAddress{p.control.host, a.data_port};
  p.transport = terms.transport;
  if (!p.transport.empty()) {
    LinkPlan check;
    check.transport = p.transport;
    validate_link_plan(check);
  }
  p.token = server_session_token(a.token, p.control.host, "--listen");
  p.wait = terms.wait;
  p.device = terms.device;
  p.caps = parse_session_caps(a.caps);
  check_ready_file_path(a.ready_file);
  return p;
}

int serve(const LinkArgs& a, const LinkPlan& terms, const OutputOptions& out, CommandContext& ctx) {
  LinkServerPlan plan = to_server_plan(a, terms);
  if (plan.transport.empty()) plan.transport = transport_names().front();
  Backend& backend = ctx.registry.preferred();
  ReadyFile ready(a.ready_file);
  JobContext job{.registry = &ctx.registry,
                 .backend = &backend,
                 .log = &ctx.err,
                 .on_listening = [&](const SocketAddress& control, const SocketAddress& data) {
                   ready.write(control, data);
                   if (!out.quiet) {
                     ctx.err << fmt::format(
                                    "xferbench link: serving on {} (transport {} on {}), waiting up to {} s for a client\n",
                                    control.to_string(), plan.transport, data.to_string(),
                                    std::chrono::duration_cast<std::chrono::seconds>(plan.wait).count())
                             << std::flush;
                   }
                 }};
  const SessionReport report = run(plan, job);
  if (!out.quiet) {
    ctx.err << fmt::format("xferbench link: served {}: {} region(s), {} bytes exposed\n", report.client,
                           report.regions, report.exposed_bytes);
  }
  return kExitOk;
}

int run_link_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"One link's latency and bandwidth over a message-size sweep: put + flush, one transfer at a time",
               "link"};
  PlanOptions o(app);
  LinkArgs a;
  LinkPlan p;
  o.text("--peer", a.peer, "a `link --listen` server's HOST[:PORT] (default: --loopback)");
  o.flag("--loopback", a.loopback, "the peer is a server thread of this process on 127.0.0.1 (the default)");
  o.text("--listen", a.listen, "run the server: control address HOST[:PORT] (default 127.0.0.1:20001; port 0: any)")
      ->expected(0, 1);
  o.port("--data-port", a.data_port, "0", "server: the transport's port on the --listen host (default 0: any)");
  o.text("--ready-file", a.ready_file, "server: write the bound control and data addresses here once listening");
  add_session_cap_flags(app, a.caps);
  o.later("-s,--size", "4:32M", "sizes MIN:MAX, or one SIZE (default 4:32M)", [&](std::string_view v, std::string_view f) {
    const SizeRange sizes = parse_size_range(v, f);  // SIZE alone: that one size
    p.min_bytes = sizes.min;
    p.max_bytes = sizes.max;
  });
  o.count("--step", p.step, "2", 0, kMaxSize, "each size is the previous one times this factor, at least 2 (default 2)");
  o.count("-i,--iters", p.iterations, "100", 1, 100'000'000, "timed transfers per size (default 100)");
  o.count("-x,--warmup", p.warmup, "10", 0, 100'000'000, "untimed transfers per size before them (default 10)");
  o.later("-M,--mem", "host:host",
          "memory SRC[:DST], each host, cuda (device memory of the preferred backend) or null (default host:host)",
          [&](std::string_view v, std::string_view f) { std::tie(p.src, p.dst) = parse_link_memory(v, f); });
  o.text("--transport", p.transport, fmt::format("{} (default: the first)", fmt::join(transport_names(), " or ")));
  o.flag("--check", p.check, "check every size's data at the peer (host or cuda memory only)");
  o.flag("--pingpong", p.pingpong,
         "time each put answered by the peer's put of as many bytes: half the round trip, as ucx_perftest's "
         "put_lat (host memory only)");
  o.text("--token", a.token, "shared session token (default $XFERBENCH_TOKEN or the built-in one)");
  add_token_file_flag(app, a.token_file);
  o.seconds("--wait", p.wait, "20", 1, 24 * 3600, "seconds to wait for the peer and for each transfer (default 20)");
  o.count("--device", p.device, "0", 0, 1023, "device index of cuda memory (default 0)");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  resolve_token_file(a.token, a.token_file);
  flags.load_expectations();

  if (app.count("--listen") > 0) {
    flags.resolve();
    refuse_given(app, kClientOnly, "a client flag (a --listen server learns sizes and memory from its client)");
    o.convert();
    return serve(a, p, flags.out, ctx);
  }
  o.convert();
  settle_plan(a, app, p);
  const LinkPlan& plan = p;
  flags.resolve();
  std::string why_cpu;
  Backend& backend = ctx.registry.preferred(&why_cpu);
  check_link_memory(plan, backend.capabilities().device_memory_in_host_ram);
  const bool device_memory = plan.src == RegionPlace::device || plan.dst == RegionPlace::device;
  if (!why_cpu.empty() && device_memory && !flags.out.quiet) {
    ctx.err << fmt::format("xferbench link: cuda memory is a cpu backend arena ({})\n", why_cpu);
  }
  return run_job_command(ctx, flags, &backend, [&](JobContext& job) { return run(plan, job); });
}

}  // namespace

extern const Command kLinkCommand{"link", "one link's latency and bandwidth over a message-size sweep", run_link_command};

}  // namespace xb
