// `xferbench link`: one link swept over message sizes (the link job), against a `link --listen`
// server (--peer) or a server thread of this process (--loopback, the default); `--listen` runs
// that server.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <ostream>
#include <tuple>

#include "cli/args.hpp"
#include "cli/command.hpp"
#include "cli/job_command.hpp"
#include "cli/output.hpp"
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

struct LinkArgs {
  std::string peer, listen, data_port = "0", ready_file, size = "4:32M", step = "2", iters = "100", warmup = "10",
              memory = "host:host", transport, token, wait = "20", device = "0";
  bool loopback = false, check = false;
  SessionCapFlags caps;
  std::string token_file;
};

// The flags only a client (the measuring side) takes: a server learns sizes and memory from it.
constexpr const char* kClientOnly[] = {"--peer", "--loopback", "--size", "--step", "--iters", "--warmup",
                                       "--mem", "--check", "--judge", "--expect", "--expect-rule"};
constexpr const char* kServerOnly[] = {"--data-port", "--ready-file", "--max-exposed", "--max-regions"};

// Whether HOST[:PORT] text names a port: "[v6]:port", or exactly one colon.
bool names_port(std::string_view text) {
  if (!text.empty() && text.front() == '[') return text.find("]:") != std::string_view::npos;
  return std::count(text.begin(), text.end(), ':') == 1;
}

LinkPlan to_plan(const LinkArgs& a, const CLI::App& app) {
  for (const char* f : kServerOnly) {
    if (app.count(f) > 0) throw UsageError(fmt::format("{}: only a server (--listen) takes it", f));
  }
  if (!a.peer.empty() && a.loopback) {
    throw UsageError("--loopback: not with --peer (the peer is either a --listen server or this process)");
  }
  LinkPlan p;
  if (!a.peer.empty()) {
    p.peer = parse_address(a.peer, "--peer", false);
    if (p.peer->port == 0) p.peer->port = kLinkDefaultControlPort;
  }
  const SizeRange sizes = parse_size_range(a.size, "-s");  // SIZE alone: that one size
  p.min_bytes = sizes.min;
  p.max_bytes = sizes.max;
  p.step = parse_count(a.step, "--step", 0, kMaxSize);
  p.iterations = parse_count(a.iters, "-i", 1, 100'000'000);
  p.warmup = parse_count(a.warmup, "-x", 0, 100'000'000);
  std::tie(p.src, p.dst) = parse_link_memory(a.memory, "-M");
  p.transport = a.transport;
  p.check = a.check;
  p.token = a.token.empty() ? default_session_token() : a.token;
  p.wait = std::chrono::seconds(parse_count(a.wait, "--wait", 1, 24 * 3600));
  p.device = static_cast<int>(parse_count(a.device, "--device", 0, 1023));
  validate_link_plan(p);
  return p;
}

LinkServerPlan to_server_plan(const LinkArgs& a, const CLI::App& app) {
  for (const char* f : kClientOnly) {
    if (app.count(f) > 0) {
      throw UsageError(fmt::format("{}: a client flag (a --listen server learns sizes and memory from its client)", f));
    }
  }
  LinkServerPlan p;
  const std::string listen = a.listen.empty() ? "127.0.0.1" : a.listen;
  p.control = parse_address(listen, "--listen", false, true);
  if (!names_port(listen)) p.control.port = kLinkDefaultControlPort;  // ":0" asks for any port
  p.data = SocketAddress{p.control.host, parse_port(a.data_port, "--data-port", true)};
  p.transport = a.transport;
  if (!p.transport.empty()) {
    LinkPlan check;
    check.transport = p.transport;
    validate_link_plan(check);
  }
  p.token = server_session_token(a.token, p.control.host, "--listen");
  p.wait = std::chrono::seconds(parse_count(a.wait, "--wait", 1, 24 * 3600));
  p.device = static_cast<int>(parse_count(a.device, "--device", 0, 1023));
  p.caps = parse_session_caps(a.caps);
  check_ready_file_path(a.ready_file);
  return p;
}

int serve(const LinkArgs& a, const CLI::App& app, const OutputOptions& out, CommandContext& ctx) {
  LinkServerPlan plan = to_server_plan(a, app);
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
  LinkArgs a;
  app.add_option("--peer", a.peer, "a `link --listen` server's HOST[:PORT] (default: --loopback)");
  app.add_flag("--loopback", a.loopback, "the peer is a server thread of this process on 127.0.0.1 (the default)");
  app.add_option("--listen", a.listen, "run the server: control address HOST[:PORT] (default 127.0.0.1:20001; port 0: any)")
      ->expected(0, 1);
  app.add_option("--data-port", a.data_port, "server: the transport's port on the --listen host (default 0: any)");
  app.add_option("--ready-file", a.ready_file, "server: write the bound control and data addresses here once listening");
  add_session_cap_flags(app, a.caps);
  app.add_option("-s,--size", a.size, "sizes MIN:MAX, or one SIZE (default 4:32M)");
  app.add_option("--step", a.step, "each size is the previous one times this factor, at least 2 (default 2)");
  app.add_option("-i,--iters", a.iters, "timed transfers per size (default 100)");
  app.add_option("-x,--warmup", a.warmup, "untimed transfers per size before them (default 10)");
  app.add_option("-M,--mem", a.memory,
                 "memory SRC[:DST], each host, cuda (device memory of the preferred backend) or null (default host:host)");
  app.add_option("--transport", a.transport, fmt::format("{} (default: the first)", fmt::join(transport_names(), " or ")));
  app.add_flag("--check", a.check, "check every size's data at the peer (host or cuda memory only)");
  app.add_option("--token", a.token, "shared session token (default $XFERBENCH_TOKEN or the built-in one)");
  add_token_file_flag(app, a.token_file);
  app.add_option("--wait", a.wait, "seconds to wait for the peer and for each transfer (default 20)");
  app.add_option("--device", a.device, "device index of cuda memory (default 0)");
  JobCommandFlags flags;
  flags.add_to(app);
  parse_args(app, args);
  resolve_token_file(a.token, a.token_file);
  flags.load_expectations();

  if (app.count("--listen") > 0) {
    flags.resolve();
    return serve(a, app, flags.out, ctx);
  }
  const LinkPlan plan = to_plan(a, app);
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
