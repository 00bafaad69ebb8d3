#include "dialects/hixl_comm_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "core/split.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "transport/address.hpp"

namespace xb {
namespace {

// Every key and its short alias (hixl_comm_bench's benchmark_config.cpp).
const std::map<std::string, std::string, std::less<>> kShortKeys{
    {"-r", "--role"},          {"-o", "--op"},          {"-d", "--device_id"},          {"-l", "--local_engine"},
    {"-e", "--remote_engine"}, {"-w", "--peer_wait_s"}, {"-c", "--peer_count"},         {"-t", "--transfer_size"},
    {"-n", "--loops"},         {"-x", "--use_async"},   {"-y", "--async_batch_num"},    {"-C", "--connect_timeout_ms"},
    {"-H", "--hixl_option"}};
const char* const kKeys[] = {"--role",         "--group",         "--transport",     "--host_roce_ip",  "--memory",
                             "--remote_memory", "--op",           "--output_dir",    "--device_id",     "--local_engine",
                             "--remote_engine", "--peer_wait_s",  "--peer_count",    "--transfer_size", "--buffer_size",
                             "--block_sizes",  "--loops",         "--use_async",     "--async_batch_num",
                             "--connect_timeout_ms", "--hixl_option"};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  for (const std::string_view field : split_on(text, ',')) out.emplace_back(field);
  return out;
}

bool parse_truth(const std::string& key, const std::string& v) {
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  throw UsageError(fmt::format("{}={}: expected true, false, 1 or 0", key, v));
}

// --block_sizes: a list (4K,64K,1M) or a doubling range (4K:1M) whose end is the start times a power of two.
std::vector<std::uint64_t> block_sizes(const std::string& text) {
  if (text.find(':') != std::string::npos) {
    const SizeRange r = parse_size_range(text, "--block_sizes");
    if (r.max % r.min != 0 || !std::has_single_bit(r.max / r.min)) {
      throw UsageError(fmt::format("--block_sizes={}: the end of a range must be the start times a power of two", text));
    }
  }
  return parse_block_sizes(text, "--block_sizes");
}

XferMode mode_of(const std::string& memory, const std::string& remote) {
  const auto place = [](const std::string& key, const std::string& v) {
    if (v == "host") return RegionPlace::host;
    if (v == "device") return RegionPlace::device;
    throw UsageError(fmt::format("{}={}: expected host or device", key, v));
  };
  return XferMode{place("--memory", memory), place("--remote_memory", remote)};
}

}  // namespace

std::string hixl_comm_direction(const HixlCommBenchRequest& r) {
  const char l = r.memory == "device" ? 'D' : 'H', p = r.remote_memory == "device" ? 'D' : 'H';
  return r.op == "write" ? fmt::format("{}2r{}", l, p) : fmt::format("r{}2{}", p, l);
}

std::string hixl_comm_bench_usage() {
  return "Usage: hixl_comm_bench --role=target|initiator [--key=value ...]\n"
         "  --role (-r)                target | initiator (required)\n"
         "  --group                    result group, the CSV's pattern column (default default)\n"
         "  --transport                hccs | roce (ub, ub_rtp, uboe, fabric_mem: not here) (default hccs)\n"
         "  --host_roce_ip             RoCE data-plane NIC IPs (accepted)\n"
         "  --memory                   host | device: this side's buffer (default device)\n"
         "  --remote_memory            initiator: host | device, the target's buffer (default device)\n"
         "  --op (-o)                  initiator: read | write (default read)\n"
         "  --output_dir               CSV/JSONL directory (default output)\n"
         "  --device_id (-d)           device (initiator 0, target 1)\n"
         "  --local_engine (-l)        host:port (initiator 127.0.0.1:16000, target 127.0.0.1:16001: its listener)\n"
         "  --remote_engine (-e)       initiator: the targets' host:port list (default 127.0.0.1:16001)\n"
         "  --peer_wait_s (-w)         target: seconds to wait for its initiators (default 30)\n"
         "  --peer_count (-c)          target: initiators served at once (default 1)\n"
         "  --transfer_size (-t)       bytes per block-size step (default 128M)\n"
         "  --buffer_size              at least transfer_size (default 1G)\n"
         "  --block_sizes              a list 4K,64K,1M or a range 4K:1M (default transfer_size)\n"
         "  --loops (-n)               repeats of the ladder (default 1)\n"
         "  --use_async (-x), --async_batch_num (-y), --connect_timeout_ms (-C), --hixl_option (-H KEY=VALUE)\n"
         "\n"
         "xferbench: the target is an xfer server listening on --local_engine itself (HIXL's TCP port + 10000 "
         "is not used); the initiator an xfer client with one worker per remote engine; transfers go over UCX "
         "(roce: its network transports).\n";
}

HixlCommBenchRequest parse_hixl_comm_bench(const std::vector<std::string>& args) {
  std::map<std::string, std::string, std::less<>> given;
  std::vector<std::string> hixl_options;
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") throw HelpRequested(hixl_comm_bench_usage());
    const auto eq = a.find('=');
    if (a.size() < 2 || a[0] != '-' || eq == std::string::npos) throw UsageError(fmt::format("Expected key=value, got: {}", a));
    std::string key = a.substr(0, eq);
    if (const auto s = kShortKeys.find(key); s != kShortKeys.end()) key = s->second;
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      throw UsageError(fmt::format("{}: not an option of hixl_comm_bench (see --help)", a.substr(0, eq)));
    }
    const std::string value = a.substr(eq + 1);
    if (value.empty()) throw UsageError(fmt::format("{}: an empty value", key));
    if (key == "--hixl_option") {
      if (value.find('=') == std::string::npos) throw UsageError(fmt::format("--hixl_option={}: expected KEY=VALUE", value));
      hixl_options.push_back(value);
      continue;
    }
    given[key] = value;
  }
  const auto get = [&](const char* key, std::string fallback) {
    const auto it = given.find(key);
    return it == given.end() ? fallback : it->second;
  };
  HixlCommBenchRequest r;
  const std::string role = get("--role", "");
  if (role.empty()) throw UsageError("--role: required (target or initiator)");
  if (role != "target" && role != "initiator") throw UsageError(fmt::format("--role={}: expected target or initiator", role));
  const bool target = role == "target";
  XferPlan& p = r.plan;
  p.role = target ? XferRole::server : XferRole::client;
  r.group = get("--group", "default");
  r.transport = get("--transport", "hccs");
  if (r.transport == "ub" || r.transport == "ub_rtp" || r.transport == "uboe" || r.transport == "fabric_mem") {
    throw Unavailable(fmt::format("--transport={}: a UB / fabric memory path of Ascend's; xferbench moves data over "
                                  "UCX (hccs: its intra-node path, roce: its network path)",
                                  r.transport));
  }
  if (r.transport != "hccs" && r.transport != "roce") {
    throw UsageError(fmt::format("--transport={}: expected hccs, roce, fabric_mem, uboe, ub_rtp or ub", r.transport));
  }
  r.network_path = r.transport == "roce";
  if (given.count("--host_roce_ip") > 0) {
    for (const std::string& ip : split_list(given.at("--host_roce_ip"))) (void)parse_address(ip, "--host_roce_ip", false);
  }
  r.memory = get("--memory", "device");
  r.remote_memory = get("--remote_memory", "device");
  p.mode = mode_of(r.memory, r.remote_memory);
  r.op = get("--op", "read");
  if (r.op == "mix") {
    throw Unavailable("--op=mix: xferbench's xfer job moves one way per run (read or write); run both");
  }
  if (r.op != "read" && r.op != "write") throw UsageError(fmt::format("--op={}: expected read, write or mix", r.op));
  p.op = r.op == "write" ? XferOp::write : XferOp::read;
  r.output_dir = get("--output_dir", "output");
  const std::vector<std::string> devices = split_list(get("--device_id", target ? "1" : "0"));
  if (devices.size() > 1) {
    throw Unavailable(fmt::format("--device_id={}: several devices in one process (lanes) are not built here; start "
                                  "one process per device",
                                  get("--device_id", "")));
  }
  r.device = static_cast<int>(parse_count(devices.front(), "--device_id", 0, 1023));
  p.device = r.device;
  r.local_engine = get("--local_engine", target ? "127.0.0.1:16001" : "127.0.0.1:16000");
  const SocketAddress local = parse_address(r.local_engine, "--local_engine", true);
  r.remote_engine = get("--remote_engine", target ? "127.0.0.1" : "127.0.0.1:16001");
  r.peer_count = static_cast<unsigned>(parse_count(get("--peer_count", "1"), "--peer_count", 1, 65535));
  p.total = parse_size(get("--transfer_size", "128M"), "--transfer_size");
  r.buffer_size = parse_size(get("--buffer_size", "1G"), "--buffer_size");
  if (r.buffer_size < p.total) {
    throw UsageError(fmt::format("--buffer_size={}: smaller than --transfer_size ({} bytes)", r.buffer_size, p.total));
  }
  p.blocks = given.count("--block_sizes") > 0 ? block_sizes(given.at("--block_sizes")) : std::vector<std::uint64_t>{p.total};
  for (const std::uint64_t b : p.blocks) {
    if (b > p.total || p.total % b != 0) {
      throw UsageError(fmt::format("--block_sizes: {} does not divide --transfer_size ({} bytes)", b, p.total));
    }
  }
  p.iters = static_cast<unsigned>(parse_count(get("--loops", "1"), "--loops", 1, 1'000'000));
  r.use_async = parse_truth("--use_async", get("--use_async", "false"));
  r.async_batch = static_cast<unsigned>(parse_count(get("--async_batch_num", "1"), "--async_batch_num", 1, 1u << 20));
  if (p.total % r.async_batch != 0) {
    throw UsageError(fmt::format("--async_batch_num={}: does not divide --transfer_size ({} bytes)", r.async_batch, p.total));
  }
  const std::uint64_t connect_ms = parse_count(get("--connect_timeout_ms", "60000"), "--connect_timeout_ms", 1, 86'400'000);
  p.warmup = 1;
  p.latency = false;  // HIXL times the whole transfer_size per step, never each transfer alone
  if (target) {
    p.control = local;
    p.data = SocketAddress{local.host, 0};
    p.clients = r.peer_count;
    if (p.clients > kXferMaxFanOut) {
      throw UsageError(fmt::format("--peer_count={}: at most {} initiators at once here", p.clients, kXferMaxFanOut));
    }
    p.wait = std::chrono::seconds(parse_count(get("--peer_wait_s", "30"), "--peer_wait_s", 1, 86400));
  } else {
    for (const std::string& e : split_list(r.remote_engine)) r.remotes.push_back(parse_address(e, "--remote_engine", true));
    if (r.remotes.size() > kXferMaxFanOut) {
      throw UsageError(fmt::format("--remote_engine: {} targets, at most {} at once here", r.remotes.size(), kXferMaxFanOut));
    }
    p.control = r.remotes.front();
    p.wait = std::chrono::seconds((connect_ms + 999) / 1000);
    // HIXL checks the buffer of a read for its fill; the pattern check here is that.
    p.verify = p.op == XferOp::read;
  }
  (void)hixl_options;  // given to HIXL's Initialize(); nothing here reads them
  return r;
}

std::string hixl_block_label(std::uint64_t b) {
  if (b >= (1u << 30) && b % (1u << 30) == 0) return fmt::format("{} GiB", b >> 30);
  if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

std::string render_hixl_comm_start(const HixlCommBenchRequest& r) {
  std::string blocks;
  for (const std::uint64_t b : r.plan.blocks) blocks += (blocks.empty() ? "" : ",") + hixl_block_label(b);
  if (r.plan.role == XferRole::server) {
    return fmt::format("[INFO] role=target group={} transport={} memory={} device_id={} local_engine={} "
                       "peer_tcp_port={} peer_wait_s={} peer_count={} buffer_size={}\n",
                       r.group, r.transport, r.memory, r.device, r.local_engine, r.plan.control.port,
                       std::chrono::duration_cast<std::chrono::seconds>(r.plan.wait).count(), r.peer_count,
                       r.buffer_size);
  }
  std::string ports;
  for (const SocketAddress& a : r.remotes) ports += (ports.empty() ? "" : ",") + std::to_string(a.port);
  return fmt::format("[INFO] role=initiator group={} transport={} memory={} remote_memory={} op={} direction={} "
                     "device_id={} local_engine={} remote_engine={} peer_tcp_port={} transfer_size={} buffer_size={} "
                     "block_sizes={} loops={}\n",
                     r.group, r.transport, r.memory, r.remote_memory, r.op, hixl_comm_direction(r), r.device,
                     r.local_engine, r.remote_engine, ports, r.plan.total, r.buffer_size, blocks, r.plan.iters);
}

namespace {

// One loop's figures of a block size's case.
struct LoopFigures {
  double gbps, ops_per_sec, latency_us;
};

std::vector<LoopFigures> loops_of(const CaseResult& c) {
  const Series* time = c.find_series("time");
  if (time == nullptr) throw std::logic_error("hixl_comm_bench: the client case has no time series");
  const XferClientConfig config = c.config.get<XferClientConfig>();
  const double total = static_cast<double>(config.total);
  const double transfers = static_cast<double>(config.transfers);
  std::vector<LoopFigures> out;
  for (const double us : time->samples) {
    out.push_back({us > 0 ? total / (us * 1e3) : 0.0, us > 0 ? transfers * 1e6 / us : 0.0, us / transfers});
  }
  return out;
}

std::string g6(double v) { return fmt::format("{:.6g}", v); }

std::string consistency(const HixlCommBenchRequest& r, const CaseResult& c) {
  if (r.op != "read") return "not_checked";
  return c.config.get<XferClientConfig>().verified ? "pass" : "fail";
}

}  // namespace

std::string render_hixl_comm_summary(const std::vector<CaseResult>& cases, int remote, bool several) {
  std::string items;
  for (const CaseResult& c : cases) {
    const auto loops = loops_of(c);
    double sum = 0;
    for (const auto& l : loops) sum += l.gbps;
    items += fmt::format("{}{}={:.3f} GB/s", items.empty() ? "" : ", ",
                         hixl_block_label(c.config.get<XferClientConfig>().block),
                         loops.empty() ? 0.0 : sum / static_cast<double>(loops.size()));
  }
  return fmt::format("[RESULT] throughput summary{}: {}\n", several ? fmt::format(" remote={}", remote) : "", items);
}

std::vector<std::string> hixl_comm_csv_rows(const HixlCommBenchRequest& r, const CaseResult& c) {
  std::vector<std::string> rows;
  const std::uint64_t block = c.config.get<XferClientConfig>().block;
  for (const LoopFigures& l : loops_of(c)) {
    rows.push_back(fmt::format("hixl_comm_bench,{},,,{},{},1,{},{},{},{},{},{},{},{},0,{}", r.group, block,
                               r.async_batch, r.transport, hixl_comm_direction(r), r.memory, r.remote_memory,
                               g6(l.gbps), g6(l.ops_per_sec), g6(l.latency_us), g6(l.latency_us), consistency(r, c)));
  }
  return rows;
}

std::vector<std::string> hixl_comm_jsonl_rows(const HixlCommBenchRequest& r, const CaseResult& c) {
  std::vector<std::string> rows;
  const std::uint64_t block = c.config.get<XferClientConfig>().block;
  for (const LoopFigures& l : loops_of(c)) {
    rows.push_back(nlohmann::json{{"benchmark", "hixl_comm_bench"},
                                  {"pattern", r.group},
                                  {"block_size", block},
                                  {"batch_size", r.async_batch},
                                  {"threads", 1},
                                  {"transport", r.transport},
                                  {"direction", hixl_comm_direction(r)},
                                  {"initiator_memory", r.memory},
                                  {"target_memory", r.remote_memory},
                                  {"bandwidth_gbps", l.gbps},
                                  {"p99_us", l.latency_us},
                                  {"consistency", consistency(r, c)}}
                       .dump());
  }
  return rows;
}

}  // namespace xb
