// `mpirun -n N xferbench fleet`: every link between the ranks of an MPI job (one rank per node),
// measured in the rounds of a round-robin schedule, printed as a bandwidth matrix; links below a
// fraction of the median link or below the expectation layers' floor are named (a node whose every
// link is slow, as the node), and the exit status is 1 when any is.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

#include "cli/command.hpp"
#include "cli/expect_flags.hpp"
#include "cli/native_flag_words.hpp"
#include "cli/output.hpp"
#include "cli/plan_options.hpp"
#include "cli/token_flags.hpp"
#include "cli/transport_flags.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/plan_error.hpp"
#include "core/size.hpp"
#include "core/whole_file.hpp"
#include "jobs/fleet/fleet_config.hpp"
#include "jobs/fleet/fleet_job.hpp"
#include "jobs/fleet/fleet_schedule.hpp"
#include "judge/fleet_floor.hpp"
#include "judge/server_model.hpp"
#include "runtime/mpi_library.hpp"
#include "runtime/session_token.hpp"
#include "transport/net_devices.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// What the plan does not hold as given: the schedule's files, the meeting's flags.
struct FleetArgs {
  std::string backend, schedule = "round-robin", rounds, locations;
  TransportFlags meet;
  bool no_confirm = false;
};

// A schedule's file, whole; a file that cannot be read is bad input naming its flag.
std::string read_schedule_file(const std::string& file, std::string_view flag) {
  std::optional<std::string> text = read_whole_file(file);
  if (!text) throw UsageError(fmt::format("{} {}: cannot read it", flag, file));
  return std::move(*text);
}

void schedule_plan(const FleetArgs& a, const CLI::App& app, FleetPlan& p) {
  if (a.schedule != "round-robin" && a.schedule != "quick" && a.schedule != "topology") {
    throw UsageError(fmt::format("--schedule {}: expected round-robin (every link), quick (half against half) or "
                                 "topology (across the --locations file's locations); --rounds FILE for your own",
                                 a.schedule));
  }
  p.schedule = a.schedule;
  if (!a.rounds.empty()) {
    if (app.count("--schedule") > 0) throw UsageError("--rounds: not with --schedule (the file is the schedule)");
    p.rounds = parse_fleet_rounds(read_schedule_file(a.rounds, "--rounds"), a.rounds);
    p.schedule = "rounds";
  }
  if (p.schedule == "topology" && a.locations.empty()) {
    throw UsageError("--schedule topology: needs --locations FILE (HOST LOCATION per line)");
  }
  if (!a.locations.empty()) {
    if (p.schedule != "topology") throw UsageError("--locations: only with --schedule topology");
    p.locations = parse_fleet_locations(read_schedule_file(a.locations, "--locations"), a.locations);
  }
}

// What only the started fleet can check, the same at every rank (so each exits 2 by itself): the
// rounds file against the rank count, every rank's host in the locations file.
void check_schedule(const FleetArgs& a, const FleetPlan& p, Runtime& group) {
  if (p.schedule == "rounds") check_fleet_rounds(p.rounds, group.size(), a.rounds);
  if (p.schedule != "topology") return;
  const std::vector<std::string> hosts = group.allgather(host_name());
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    if (!p.locations.count(hosts[r])) {
      throw UsageError(fmt::format("--locations {}: host {} (rank {}) is not in it", a.locations, hosts[r], r));
    }
  }
}

void settle_plan(const FleetArgs& a, FleetPlan& p) {
  p.base.across_nodes = true;  // one device index names a device on every rank
  p.base.pairs = {{p.device, p.device}};
  p.confirm = !a.no_confirm;
  TransportChoice meet = parse_transport_flags(a.meet);
  p.transport = std::move(meet.transport);
  p.host = std::move(meet.host);
  p.token = std::move(meet.token);
  p.wait = meet.wait;
}

// The reason for exit status 1, on stderr: the nodes named (every link slow), then the slow links no
// named node explains; before them (unless quiet) the links slow at first but not when measured again.
void report_flagged(const FleetOutcome& outcome, const ResultDocument& doc, bool quiet, std::ostream& err) {
  for (const FleetLink& l : quiet ? std::vector<FleetLink>{} : outcome.verdict.cleared) {
    err << fmt::format("xferbench fleet: rank {} -> rank {} was slow at first ({} GB/s: {}), not when measured again: "
                       "not named\n",
                       l.from, l.to, format_number(l.gbps), fleet_slow_why(l, outcome.verdict.threshold));
  }
  if (outcome.verdict.flagged.empty()) return;
  const CaseResult& matrix = doc.cases.back();
  const auto config = matrix.config.get<FleetMatrixConfig>();
  err << fmt::format("xferbench fleet: {} of {} links slow (below {} x the median link, {} GB/s{}){}:\n",
                     outcome.verdict.flagged.size(), static_cast<std::uint64_t>(matrix.find_metric("links")->value), outcome.verdict.threshold,
                     format_number(outcome.verdict.median_gbps),
                     config.floor_rule.empty() ? "" : ", or below the floor of " + config.floor_rule,
                     config.every_link_slow ? "; every link is slow: the fleet as a whole, no one node" : "");
  for (const FleetNamedNode& n : config.nodes) {
    err << fmt::format("  slow node: {}: {} of its {} links slow (their median {} GB/s)\n", n.name, n.slow, n.links,
                       format_number(n.median));
  }
  for (const FleetListedLink& f : config.links_named) {
    err << fmt::format("  slow link: {} -> {}: {} GB/s ({} x median; {})\n", f.from, f.to, format_number(f.bandwidth),
                       format_number(f.of_median), f.why);
  }
}

int run_fleet_command(const std::vector<std::string>& args, CommandContext& ctx) {
  CLI::App app{"Every link between the ranks of an MPI job (one rank per node), pairs measured in the rounds of a "
               "round-robin schedule, the bandwidth matrix printed and the slow links named (exit 1 when any is). "
               "Start it with mpirun -n N",
               "fleet"};
  PlanOptions o(app);
  FleetArgs a;
  FleetPlan plan;
  OutputOptions out;
  // Its range (to 4 GiB) is validate_p2p_plan's.
  o.size("-s,--size", plan.base.size, "64M", "bytes per execution and direction, 1 to 4G (default 64M)");
  o.count("--times,--et", plan.base.executions, "10", 1, kP2pMaxExecutions,
          "timed executions per link, 1 to 100000000 (default 10)");
  o.count("--warmup", plan.base.warmup, "1", 0, kP2pMaxExecutions, "untimed executions per link first (default 1)");
  o.count("--max-pairs", plan.max_pairs, "0", 0, 1u << 20, "pairs measured at once at most (default 0: every pair of a round)");
  o.later("--threshold", "0.8", "flag links below this fraction of the median link, 0 to 1 (default 0.8)",
          [&](std::string_view v, std::string_view) {
            const std::optional<double> t = parse_finite_number(v);
            if (!t || *t < 0 || *t > 1) {
              throw UsageError(fmt::format("--threshold {}: expected a fraction of the median link from 0 to 1 (0.8: "
                                           "flag links below 80% of the median; 0: flag none)", v));
            }
            plan.threshold = *t;
          });
  o.count("--device", plan.device, "0", 0, kP2pMaxDevices, "the device of every rank (default 0)");
  o.text("--backend", a.backend, "device backend (default: the first accelerator found, else cpu)");
  app.add_option("--transport", a.meet.transport, fmt::format("{} (default: the first)", fmt::join(transport_names(), " or ")));
  app.add_option("--hip,--host-ip", a.meet.host, "this rank's address (default: the first non-loopback IPv4 address)");
  app.add_option("--token", a.meet.token, "shared session token (default $XFERBENCH_TOKEN, else one drawn by rank 0 and sent to every rank over MPI)");
  add_token_file_flag(app, a.meet.token_file);
  app.add_option("--wait", a.meet.wait, "seconds to wait for a partner and for each transfer (default 20)");
  app.add_option("--schedule", a.schedule,
                 "round-robin (every link, the default), quick (half against half: every rank once) or topology "
                 "(half against half across --locations' locations)");
  app.add_option("--rounds", a.rounds, "your own schedule: one round per line, pairs of ranks \"0-1 2-3\"");
  o.count("--matrix-max-ranks", plan.matrix_max_ranks, "256", 2, 4096,
          "every link's case and the matrix up to this many ranks, 2 to 4096 (default 256); above, only "
          "flagged and cleared links");
  app.add_option("--locations", a.locations, "--schedule topology: HOST LOCATION per line (\"node-a rack1/sw3\")");
  app.add_flag("--no-confirm", a.no_confirm, "name links slow in the first pass without measuring them again alone");
  app.add_flag("--verify", plan.base.verify, "a pattern in every source, checked at the destination after each link");
  ExpectFlags expect;
  expect.add_to(app);
  add_output_options(app, out);
  add_units_option(app, out);
  o.parse(args);
  resolve_token_file(a.meet.token, a.meet.token_file);
  settle_plan(a, plan);
  schedule_plan(a, app, plan);
  // The absolute floor from the expectation layers (read before anything runs: a bad file is exit
  // 2), and this rank's NIC for floors that are a share of a link's ceiling (docs/judge.md).
  const FleetFloorTerms floor = fleet_floor(expect.load(), plan.base.size, server_model("/sys"));
  plan.floor_gbps = floor.gbps;
  plan.floor_share = floor.share;
  plan.floor_rule = floor.rule;
  const NicCeiling nic = nic_holding("/sys", plan.host.empty() ? default_host_address() : plan.host);
  if (nic.ceiling.bytes_per_second) plan.nic_gbps = *nic.ceiling.bytes_per_second / 1e9;
  plan.nic = nic.ceiling.derivation;
  resolve_output(out);
  Backend& backend = ctx.registry.choose(a.backend);
  if (const Support s = backend.availability(); !s.ok) {
    throw Unavailable(fmt::format("the {} backend: {}", backend.name(), s.reason));
  }
  worded_by(native_flag_words().with({{"p2p.src", "--device"}, {"p2p.dst", "--device"}}),
            [&] { validate_p2p_plan(plan.base, backend); });

  const MpiLibrary mpi = MpiLibrary::load(ctx.registry.module_dirs(), "fleet");
  const std::unique_ptr<MpiWorld> world = mpi.start();
  MpiWorld& runtime = *world;
  if (runtime.size() < 2) {
    throw UsageError(fmt::format("needs 2 ranks or more, one per node; this job has {}{}", runtime.size(),
                                 mpi_launched() ? "" : " (start it with mpirun -n N)"));
  }
  check_schedule(a, plan, runtime);
  FleetOutcome outcome;
  try {
    plan.token = shared_session_token(runtime, given_session_token(a.meet.token));
    JobContext job{.registry = &ctx.registry, .backend = &backend, .runtime = &runtime};
    outcome = worded_by(native_flag_words(), [&] { return run(plan, job); });
  } catch (const std::exception& e) {
    // The others wait in a collective: end every rank.
    ctx.err << fmt::format("xferbench fleet: rank {}: error: {}\n", runtime.rank(), e.what()) << std::flush;
    runtime.abort(kExitFailure);
  }
  if (runtime.rank() != 0) return kExitOk;
  ResultDocument doc = new_result_document(ctx);
  doc.cases = std::move(outcome.cases);
  deliver(doc, out, ctx);
  ctx.out.flush();  // the matrix first, then the lines that explain the exit status
  report_flagged(outcome, doc, out.quiet, ctx.err);
  return outcome.verdict.flagged.empty() ? kExitOk : kExitFailure;
}

}  // namespace

extern const Command kFleetCommand{"fleet", "every link of an MPI job, the slow ones named", run_fleet_command};

}  // namespace xb
