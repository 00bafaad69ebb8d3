#include "dialects/sharp_coll_test.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
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

std::string preferred_transport() {
  // sharp_coll_test speaks UCX (or verbs) to the HCA: UCX where built, else the plain TCP baseline.
  const auto names = transport_names();
  for (const auto& n : names) {
    if (n == "ucx") return n;
  }
  return names.front();
}

}  // namespace

LinkFlagNames sharp_coll_test_flag_names() {
  LinkFlagNames f;
  f.size = "-s";
  f.step = "-f";
  f.iterations = "-i";
  f.warmup = "-x";
  f.memory = "-M";
  f.check = "-M";  // no data check in sharp_coll_test; never asked for
  return f;
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
         "\n"
         "xferbench: the link is measured as a loopback over UCX, never through shared memory (UCX_TLS=rc,ud for "
         "an RDMA device, else tcp, unless UCX_TLS is set); -d picks its network device (UCX_NET_DEVICES); cuda "
         "means device memory of the preferred device backend.\n";
}

SharpCollTestRequest parse_sharp_coll_test(const std::vector<std::string>& args,
                                           bool (*net_device_exists)(std::string_view name), bool rdma_here) {
  for (const auto& a : args) {
    if (a == "-h" || a == "--help") throw HelpRequested(sharp_coll_test_usage());
  }
  CLI::App app{"NVIDIA SHARP sharp_coll_test: HCA <-> TOR bandwidth (xferbench dialect)", "sharp_coll_test"};
  app.set_help_flag();  // -h is sharp_coll_test's own usage text, above
  std::string device, job, iters = "100", skips = "10", mem = "host", size = "4:32M", factor = "2";
  app.add_option("-d,--ib-dev", device, "device <dev:port>");
  app.add_option("-j,--jobid", job, "explicit job id");
  app.add_option("-i,--iters", iters, "iterations");
  app.add_option("-x,--skips", skips, "warm-up iterations");
  app.add_option("-M,--mem_type", mem, "memory type SRC[:DST]: host, cuda, null");
  app.add_option("-s,--size", size, "[MIN:]MAX");
  app.add_option("-f,--stepfactor", factor, "factor between sizes");
  // sharp_coll_test parses with getopt_long: a long option may be cut to any unambiguous prefix.
  parse_args(app, expand_long_prefixes(args, {"help", "ib-dev", "jobid", "iters", "skips", "mem_type", "size",
                                              "stepfactor"}));

  SharpCollTestRequest req;
  LinkPlan& p = req.plan;
  const SizeRange sizes = parse_size_range(size, "-s", 4);  // MAX alone keeps the default MIN of 4
  p.min_bytes = sizes.min;
  p.max_bytes = sizes.max;
  p.step = parse_count(factor, "-f", 0, kMaxSize);
  p.iterations = parse_count(iters, "-i", 1, 100'000'000);
  p.warmup = parse_count(skips, "-x", 0, 100'000'000);
  std::tie(p.src, p.dst) = parse_link_memory(mem, "-M");
  p.transport = preferred_transport();
  p.token = default_session_token();
  validate_link_plan(p, sharp_coll_test_flag_names());
  // SHARP's job ids are unsigned 64-bit numbers.
  if (app.count("-j") > 0) job = std::to_string(parse_count(job, "-j", 0, UINT64_MAX));
  req.job_id = job;
  req.rdma = rdma_here;
  if (app.count("-d") > 0) {
    req.ib_device = device;
    req.net_devices = sharp_net_devices(device, net_device_exists);
    req.rdma = req.net_devices.find(':') != std::string::npos;  // an RDMA device is named with its port
  }
  return req;
}

std::vector<EnvSetting> sharp_coll_test_ucx_environment(const SharpCollTestRequest& req) {
  std::vector<EnvSetting> env;
  if (!req.net_devices.empty()) env.push_back({"UCX_NET_DEVICES", req.net_devices, true});
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
  const auto bytes = r.config.at("size").get<std::uint64_t>();
  return render_sharp_coll_test_row(bytes, metric_value(r, "latency_avg"), metric_value(r, "latency_min"),
                                    metric_value(r, "latency_max"), metric_value(r, "bandwidth"),
                                    static_cast<std::uint64_t>(metric_value(r, "iterations")));
}

}  // namespace xb
