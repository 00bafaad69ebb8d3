#include "dialects/sharp_coll_test.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "cli/args.hpp"
#include "cli/native_flag_words.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/coll/coll_config.hpp"
#include "jobs/link/link_config.hpp"
#include "transport/address.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

double metric_value(const CaseResult& r, std::string_view name) {
  const Metric* m = r.find_metric(name);
  if (m == nullptr) throw std::logic_error(fmt::format("sharp_coll_test: the link result has no metric {}", name));
  return m->value;
}

bool is_plain_name(std::string_view name) {
  return !name.empty() && name.find('/') == std::string_view::npos && name != "." && name != "..";
}

}  // namespace

FlagWords sharp_coll_test_flag_words() {
  return native_flag_words().with({
      {"link.size", "-s"}, {"link.step", "-f"}, {"link.iterations", "-i"}, {"link.warmup", "-x"}, {"link.memory", "-M"},
      {"link.check", "-M"},  // no data check in sharp_coll_test; never asked for
  });
}

std::string sharp_net_devices(std::string_view ib_device, bool (*net_device_exists)(std::string_view name)) {
  const auto colon = ib_device.find(':');
  const std::string_view dev = ib_device.substr(0, colon);
  std::string port = "1";
  if (colon != std::string_view::npos) {
    port = std::to_string(parse_count(ib_device.substr(colon + 1), "-d DEV:PORT", 1, 255));
  }
  if (!is_plain_name(dev)) throw UsageError(fmt::format("-d {}: expected DEV[:PORT], a device name", ib_device));
  // A well-formed name of a device this machine lacks is absent hardware (exit 3), as on a node
  // whose HCA is down, not bad input.
  if (!net_device_exists(dev)) {
    throw Unavailable(fmt::format("-d {}: no network interface or RDMA device named '{}' on this machine "
                                  "(see /sys/class/net and /sys/class/infiniband)",
                                  ib_device, dev));
  }
  // A network interface has one port and UCX names it without one ("eth0"); an RDMA device's port
  // is part of its UCX name ("mlx5_0:1"), as in sharp_coll_test's -d.
  if (is_rdma_device(dev)) return fmt::format("{}:{}", dev, port);
  if (port != "1") {
    throw Unavailable(fmt::format("-d {}: {} is a network interface, which has only port 1", ib_device, dev));
  }
  return std::string(dev);
}

std::string sharp_coll_test_usage() {
  return "Usage:   sharp_coll_test[_mpi]  [OPTIONS]\n"
         "Options:\n"
         "-h, --help              Show this help message and exit\n"
         "-d, --ib-dev            Use IB device <dev:port> (default first device found)\n"
         "-j, --jobid             Explicit Job ID\n"
         "-i, --iters             Number of iterations to run perf benchmark\n"
         "-x, --skips             Number of warmup iterations to run perf benchmark\n"
         "-M, --mem_type          Memory type(host,cuda,null) used in the communication buffers format: "
         "<src memtype>:<recv memtype>\n"
         "-s, --size              Set the minimum and/or the maximum message size. format:[MIN:]MAX Default:<4:32M>\n"
         "-f, --stepfactor        increment factor> multiplication factor between sizes. Default : 2\n"
         "    --peer              HOST:PORT of the far end, an `xferbench link --listen` server (xferbench; also "
         "$XFERBENCH_SHARP_PEER)\n"
         "    --expect            a site expectation file: judge each figure after the table (xferbench; docs/judge.md)\n"
         "    --expect-rule       PATH=BANDWIDTH or PATH=SHARE of the ceiling ('coll=20 GB/s', 'link=0.9'), repeatable: "
         "judge each figure (xferbench)\n"
         "Collective tester (under mpirun; any of these options selects it):\n"
         "-m, --mode              Test modes: <basic|complex|perf|all> . Default: perf\n"
         "-c, --collectives       Comma separated list of collectives:[allreduce|iallreduce|reduce|ireduce|barrier|"
         "ibarrier|bcast|reduce_scatter|allgather|all|none] to run. Default: allreduce,barrier\n"
         "-N, --nbc_count         Number of non-blocking operation posted before waiting for completion (max: 512)\n"
         "-t, --group_type        Set specific group type(world(default), world-dup, world-rev, half, split:<n>, "
         "split-rev:<n>, split:ppn-comm, split:ppn-jobs) to test\n"
         "-T, --datatype          Datatype (half_int, half_float, int, float, long, double, byte). Default: int\n"
         "-B, --perf_with_barrier Sync each iteration with a barrier, Default:1\n"
         "-r, --root              Root for bcast, reduce operations\n"
         "-H, --host_alloc_type   Host memory allocation method (hugetlb, hugethp, malloc)\n"
         "-D, --data_layout       Data layout (contig, iov). Default: contig\n"
         "-C, --iov_count         Number of entries in IOV list, if used\n"
         "-p, --flat_ppn          Number of process per node default:1\n"
         "In the collective tester -s defaults to 4:256, -i to 1000 and -x to 100.\n"
         "\n"
         "xferbench: the link's far end is --peer, else under mpirun the next rank (ranks 0 -> 1, 2 -> 3, ...; rank 0 "
         "prints), else a loopback server of this process; it says which after the table. The link runs over UCX, "
         "never through shared memory (UCX_TLS=rc,ud for an RDMA device, else tcp, unless UCX_TLS is set); -d picks "
         "its network device (UCX_NET_DEVICES); cuda "
         "means device memory of the preferred device backend. The collectives run through MPI (no SHARP offload "
         "here); -m basic, complex and all run the perf mode, each size's result checked.\n";
}

namespace {

// sharp_coll_test's long options, for getopt_long's prefixes.
const std::vector<std::string> kLongOptions{"help",      "peer",       "expect",       "expect-rule", "ib-dev",
                                            "jobid",     "iters",      "skips",
                                            "mem_type",  "size",       "stepfactor",   "mode",       "collectives",
                                            "nbc_count", "group_type", "datatype",     "perf_with_barrier",
                                            "root",      "host_alloc_type", "data_layout", "iov_count", "flat_ppn"};

// The collective tester's own options: any of them selects it.
struct CollectiveArgs {
  std::string mode, collectives, nbc = "512", group, datatype, barrier, root, alloc, layout, iov, ppn;
};

std::uint64_t power_floor(std::uint64_t x) { return x == 0 ? 0 : std::bit_floor(x); }
std::uint64_t power_ceil(std::uint64_t x) { return x <= 1 ? 1 : std::bit_ceil(x); }

std::vector<Collective> parse_collectives(const std::string& text) {
  std::vector<Collective> wanted;
  const auto add = [&](Collective c) {
    if (std::find(wanted.begin(), wanted.end(), c) == wanted.end()) wanted.push_back(c);
  };
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name == "none") {
      wanted.clear();
    } else if (name == "all") {  // the tester's "all": allreduce, iallreduce and barrier
      for (Collective c : {Collective::allreduce, Collective::iallreduce, Collective::barrier}) add(c);
    } else if (name == "ireduce" || name == "ibarrier") {
      // Accepted as the tester accepts them; its perf mode has no test of either.
    } else if (const auto c = collective_from(name)) {
      add(*c);
    } else {
      throw UsageError(fmt::format("-c {}: '{}' is not a collective (allreduce, iallreduce, reduce, ireduce, barrier, "
                                   "ibarrier, bcast, reduce_scatter, allgather, all, none)",
                                   text, name));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  // The perf mode's fixed order, whatever order -c names them in.
  std::vector<Collective> ordered;
  for (Collective c : {Collective::allreduce, Collective::iallreduce, Collective::reduce, Collective::barrier,
                       Collective::bcast, Collective::reduce_scatter, Collective::allgather}) {
    if (std::find(wanted.begin(), wanted.end(), c) != wanted.end()) ordered.push_back(c);
  }
  return ordered;
}

GroupLayout parse_group_type(const std::string& text) {
  using K = GroupLayout::Kind;
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : text.substr(colon + 1);
  const auto parts = [&] {
    return arg.empty() ? 2 : static_cast<int>(parse_count(arg, "-t split:N", 1, 1u << 20));
  };
  if (kind == "world" && arg.empty()) return {K::world, 2};
  if (kind == "world-dup" && arg.empty()) return {K::world_dup, 2};
  if (kind == "world-rev" && arg.empty()) return {K::world_rev, 2};
  if (kind == "half" && arg.empty()) return {K::half, 2};
  if (kind == "split" && arg == "ppn-comm") return {K::ppn_comm, 2};
  if (kind == "split" && arg == "ppn-jobs") return {K::ppn_jobs, 2};
  if (kind == "split" || kind == "slipt") return {K::split, parts()};  // the usage text spells it "slipt"
  if (kind == "split-rev") return {K::split_rev, parts()};
  throw UsageError(fmt::format("-t {}: expected world, world-dup, world-rev, half, split:N, split-rev:N, "
                               "split:ppn-comm or split:ppn-jobs",
                               text));
}

ElementType parse_datatype(const std::string& text) {
  if (text == "int") return ElementType::int32;
  if (text == "half_int") return ElementType::int16;
  if (text == "long") return ElementType::int64;
  if (text == "float") return ElementType::float32;
  if (text == "double") return ElementType::float64;
  if (text == "byte") return ElementType::int8;
  if (text == "half_float") {
    throw Unavailable("-T half_float: a 16-bit float is SHARP's own type; MPI, which runs the collectives here, "
                      "has none");
  }
  throw UsageError(fmt::format("-T {}: expected half_int, half_float, int, float, long, double or byte", text));
}

HostAllocation parse_allocation(const std::string& text) {
  if (text == "malloc") return HostAllocation::malloc;
  if (text == "hugetlb") return HostAllocation::hugetlb;
  if (text == "hugethp") return HostAllocation::hugethp;
  throw UsageError(fmt::format("-H {}: expected malloc, hugetlb or hugethp", text));
}

SharpCollectives parse_collective_mode(const CLI::App& app, const CollectiveArgs& c, const std::string& size,
                                       const std::string& iters, const std::string& skips, const std::string& mem,
                                       const std::string& factor) {
  SharpCollectives out;
  CollPlan& p = out.plan;
  if (app.count("-m") > 0) {
    if (c.mode != "basic" && c.mode != "complex" && c.mode != "perf" && c.mode != "all") {
      throw UsageError(fmt::format("-m {}: expected basic, complex, perf or all", c.mode));
    }
    out.mode = c.mode;
  }
  if (app.count("-c") > 0) p.collectives = parse_collectives(c.collectives);
  p.outstanding = static_cast<unsigned>(parse_count(c.nbc, "-N", 1, kMaxOutstanding));
  if (app.count("-t") > 0) out.layout = parse_group_type(c.group);
  p.group = app.count("-t") > 0 ? c.group : "world";
  if (app.count("-T") > 0) p.type = parse_datatype(c.datatype);
  if (app.count("-B") > 0) p.line_up = parse_count(c.barrier, "-B", 0, INT32_MAX) != 0;
  if (app.count("-r") > 0) p.root = static_cast<int>(parse_count(c.root, "-r", 0, INT32_MAX));
  if (app.count("-H") > 0) out.allocation = parse_allocation(c.alloc);
  if (app.count("-D") > 0) {
    if (c.layout == "iov") {
      throw Unavailable("-D iov: the iov data layout is SHARP's own (its collectives take an iov list); through MPI, "
                        "which runs the collectives here, contig only");
    }
    if (c.layout != "contig") throw UsageError(fmt::format("-D {}: expected contig or iov", c.layout));
  }
  if (app.count("-C") > 0) (void)parse_count(c.iov, "-C", 0, 1024);  // used with -D iov only
  if (app.count("-p") > 0) (void)parse_count(c.ppn, "-p", 0, INT32_MAX);  // SHARP's channels; MPI needs none
  // The tester's -s: MAX alone keeps MIN 4; sizes become powers of two (MIN rounded up, MAX down).
  if (app.count("-s") > 0) {
    const SizeRange r = parse_size_range(size, "-s", 4);
    p.min_bytes = power_ceil(r.min);
    p.max_bytes = power_floor(r.max);
  }
  if (app.count("-i") > 0) p.iterations = parse_count(iters, "-i", 1, 100'000'000);
  if (app.count("-x") > 0) p.warmup = parse_count(skips, "-x", 0, 100'000'000);
  if (app.count("-f") > 0 && parse_count(factor, "-f", 2, kMaxSize) != 2) {
    throw UsageError(fmt::format("-f {}: the collective tester doubles each size (factor 2 only)", factor));
  }
  if (app.count("-M") > 0) {
    const auto [src, dst] = parse_link_memory(mem, "-M");
    if (src == RegionPlace::null || dst == RegionPlace::null) {
      throw UsageError(fmt::format("-M {}: null memory is the HCA-to-TOR test's; collectives take host or cuda", mem));
    }
    if (src == RegionPlace::device || dst == RegionPlace::device) {
      throw Unavailable(fmt::format("-M {}: cuda buffers in the collectives need SHARP or a CUDA-aware MPI; the "
                                    "collectives run through this build's MPI on host memory",
                                    mem));
    }
  }
  worded_by(sharp_coll_test_flag_words(), [&] { validate_coll_plan(p); });
  return out;
}

}  // namespace


SharpCollTestRequest parse_sharp_coll_test(const std::vector<std::string>& args,
                                           bool (*net_device_exists)(std::string_view name), bool rdma_here) {
  for (const auto& a : args) {
    if (a == "-h" || a == "--help") throw HelpRequested(sharp_coll_test_usage());
  }
  CLI::App app{"NVIDIA SHARP sharp_coll_test (xferbench dialect)", "sharp_coll_test"};
  app.set_help_flag();  // -h is sharp_coll_test's own usage text, above
  // getopt_long: an option given twice takes its last value.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::string device, job, iters = "100", skips = "10", mem = "host", size = "4:32M", factor = "2", peer;
  CollectiveArgs c;
  app.add_option("-d,--ib-dev", device, "device <dev:port>");
  app.add_option("-j,--jobid", job, "explicit job id");
  app.add_option("-i,--iters", iters, "iterations");
  app.add_option("-x,--skips", skips, "warm-up iterations");
  app.add_option("-M,--mem_type", mem, "memory type SRC[:DST]: host, cuda, null");
  app.add_option("-s,--size", size, "[MIN:]MAX");
  app.add_option("-f,--stepfactor", factor, "factor between sizes");
  app.add_option("-m,--mode", c.mode, "basic, complex, perf, all");
  app.add_option("-c,--collectives", c.collectives, "collectives");
  app.add_option("-N,--nbc_count", c.nbc, "non-blocking operations outstanding");
  app.add_option("-t,--group_type", c.group, "group type");
  app.add_option("-T,--datatype", c.datatype, "datatype");
  app.add_option("-B,--perf_with_barrier", c.barrier, "barrier before each iteration");
  app.add_option("-r,--root", c.root, "root");
  app.add_option("-H,--host_alloc_type", c.alloc, "host allocation");
  app.add_option("-D,--data_layout", c.layout, "data layout");
  app.add_option("-C,--iov_count", c.iov, "iov entries");
  app.add_option("-p,--flat_ppn", c.ppn, "processes per node");
  app.add_option("--peer", peer, "the far end of the HCA-to-TOR link (xferbench)");
  ExpectFlags expect;
  expect.add_to(app);
  // sharp_coll_test parses with getopt_long: a long option may be cut to any unambiguous prefix.
  parse_args(app, expand_long_prefixes(args, kLongOptions));

  SharpCollTestRequest req;
  bool collective_mode = false;
  for (const char* flag : {"-m", "-c", "-N", "-t", "-T", "-B", "-r", "-H", "-D", "-C", "-p"}) {
    collective_mode = collective_mode || app.count(flag) > 0;
  }
  if (collective_mode && app.count("--peer") > 0) {
    throw UsageError("--peer: the far end of the HCA-to-TOR test; the collective tester's ranks are mpirun's");
  }
  if (collective_mode) {
    req.collectives = parse_collective_mode(app, c, size, iters, skips, mem, factor);
  } else {
    LinkPlan& p = req.plan;
    const SizeRange sizes = parse_size_range(size, "-s", 4);  // MAX alone keeps the default MIN of 4
    p.min_bytes = sizes.min;
    p.max_bytes = sizes.max;
    p.step = parse_count(factor, "-f", 0, kMaxSize);
    p.iterations = parse_count(iters, "-i", 1, 100'000'000);
    p.warmup = parse_count(skips, "-x", 0, 100'000'000);
    std::tie(p.src, p.dst) = parse_link_memory(mem, "-M");
    p.transport = default_transport_name();  // sharp_coll_test speaks UCX (or verbs) to the HCA
    p.token = default_session_token();
    worded_by(sharp_coll_test_flag_words(), [&] { validate_link_plan(p); });
    // Data the HCA makes itself comes in messages of 16K at least (sharp_coll_test's own rule).
    if ((p.src == RegionPlace::null || p.dst == RegionPlace::null) && p.min_bytes < kSharpNullMinBytes) {
      throw UsageError(fmt::format("-M {}: with null memory the message size must be at least 16K (-s {} starts at {})",
                                   mem, size, p.min_bytes));
    }
    if (app.count("--peer") > 0) p.peer = parse_address(peer, "--peer", true);
  }
  // SHARP's job ids are unsigned 64-bit numbers.
  if (app.count("-j") > 0) job = std::to_string(parse_count(job, "-j", 0, UINT64_MAX));
  req.job_id = job;
  req.expect = expect;
  req.rdma = rdma_here;
  if (app.count("-d") > 0) {
    req.ib_device = device;
    req.net_devices = sharp_net_devices(device, net_device_exists);
    req.rdma = req.net_devices.find(':') != std::string::npos;  // an RDMA device is named with its port
    if (req.collectives) req.collectives->plan.net_device = req.net_devices;
  }
  return req;
}

std::vector<EnvSetting> sharp_coll_test_ucx_environment(const SharpCollTestRequest& req) {
  std::vector<EnvSetting> env;
  if (!req.net_devices.empty()) env.push_back({"UCX_NET_DEVICES", req.net_devices, true});
  // MPI chooses its own transports for the collectives (shared memory between ranks of a node).
  if (req.collectives) return env;
  env.push_back({"UCX_TLS", req.rdma ? "rc,ud" : "tcp", false});
  return env;
}

std::string_view sharp_mem_type(RegionPlace place) {
  switch (place) {
    case RegionPlace::host:
      return "HOST";
    case RegionPlace::device:
      return "CUDA";
    case RegionPlace::null:
      return "HCA";
  }
  return "?";
}

std::string render_sharp_coll_test_header(const LinkPlan& plan) {
  return fmt::format("\nHCA < -- > TOR Bandwidth test. mem_type: {}:{}\n{:>15}{:>16}{:>16}{:>16}{:>16}{:>11}\n",
                     sharp_mem_type(plan.src), sharp_mem_type(plan.dst), "#size(bytes)", "Avg lat(us)", "Min lat(us)",
                     "Max lat(us)", "Avg BW(Gb/s)", "iters");
}

std::string render_sharp_coll_test_row(std::uint64_t bytes, double avg_us, double min_us, double max_us,
                                       double bandwidth_gbps, std::uint64_t iters) {
  return fmt::format("{:>15}{:>16.2f}{:>16.2f}{:>16.2f}{:>16.2f}{:>11}\n", bytes, avg_us, min_us, max_us,
                     bandwidth_gbps, iters);
}

std::string render_sharp_coll_test_row(const CaseResult& r) {
  const std::uint64_t bytes = r.config.get<LinkConfig>().size;
  return render_sharp_coll_test_row(bytes, metric_value(r, "latency_avg"), metric_value(r, "latency_min"),
                                    metric_value(r, "latency_max"), metric_value(r, "bandwidth"),
                                    static_cast<std::uint64_t>(metric_value(r, "iterations")));
}


std::string sharp_group_title(const GroupLayout& layout) {
  using K = GroupLayout::Kind;
  switch (layout.kind) {
    case K::world: return "";
    case K::world_dup: return "Comm World Dup";
    case K::world_rev: return "Comm World Reverse";
    case K::split: return "Comm split (default: Odd/even)";
    case K::split_rev: return "Comm Split Reverse";
    case K::half: return "Comm Split Half";
    case K::ppn_comm: return "Comm per PPN Rank";
    case K::ppn_jobs: return "Sharp job and Comm per PPN Rank";
  }
  return "";
}

std::string render_sharp_coll_header(const CaseResult& first) {
  const CollConfig config = first.config.get<CollConfig>();
  const std::string& op = config.collective;
  const int n = config.ranks;
  std::string title;
  if (op == "allreduce") title = fmt::format("Allreduce perf test. comm_size:{}", n);
  if (op == "iallreduce") {
    title = fmt::format("Non-Blocking Allreduce perf test. comm_size:{} #num_nonblock_ops:{}", n,
                        config.outstanding.value());
  }
  if (op == "reduce") {
    title = fmt::format("Reduce perf test. comm_size:{} reduce root:{}", n, config.root.value());
  }
  if (op == "bcast") {
    title = fmt::format("Bcast perf test. comm_size:{} bcast root:{}", n, config.root.value());
  }
  if (op == "reduce_scatter") title = fmt::format("Reduce-scatter perf test. comm_size:{}", n);
  if (op == "allgather") title = fmt::format("Allgather perf test. comm_size:{}", n);
  if (op == "barrier") {
    return fmt::format("\nBarrier perf test. comm_size:{}\n{:>10} {:>10} {:>10} {:>10}\n", n, "Avg", "Min", "Max",
                       "iters");
  }
  if (title.empty()) throw std::logic_error("sharp_coll_test: a collective without a header: " + op);
  return fmt::format("\n{}\n{:>15} {:>15} {:>15} {:>15} {:>15} {:>10}\n", title, "#size(bytes)", "Avg lat(us)",
                     "Min lat(us)", "Max lat(us)", "Avg BW(Gb/s)", "iters");
}

std::string render_sharp_coll_row(const CaseResult& r) {
  const auto iters = static_cast<std::uint64_t>(metric_value(r, "iterations"));
  const CollConfig config = r.config.get<CollConfig>();
  if (config.collective == "barrier") {
    return fmt::format("{:>10.2f} {:>10.2f} {:>10.2f} {:>10}\n", metric_value(r, "latency_avg"),
                       metric_value(r, "latency_min"), metric_value(r, "latency_max"), iters);
  }
  return fmt::format("{:>15} {:>15.2f} {:>15.2f} {:>15.2f} {:>15.2f} {:>10}\n",
                     config.size, metric_value(r, "latency_avg"),
                     metric_value(r, "latency_min"), metric_value(r, "latency_max"), metric_value(r, "bandwidth"),
                     iters);
}

}  // namespace xb
