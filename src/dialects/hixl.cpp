#include "dialects/hixl.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/args.hpp"
#include "cli/native_flag_words.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/xfer/xfer_config.hpp"

namespace xb {
namespace {

const char* const kUsage =
    "usage: benchmark DEVICE_ID LOCAL_ENGINE REMOTE_ENGINE TCP_PORT TRANSFER_MODE TRANSFER_OP USE_BUFFER_POOL\n"
    "  client: benchmark 0 10.10.10.0 10.10.10.0:16000 20000 d2d write false\n"
    "  server: benchmark 1 10.10.10.0:16000 10.10.10.0 20000 d2d write false\n"
    "  transfer_mode d2d|h2d|d2h|h2h (local cache 2 remote cache), transfer_op write|read, use_buffer_pool true|false\n"
    "   or: benchmark DEVICE_ID LOCAL_ENGINE REMOTE_ENGINE TCP_PORT TRANSFER_MODE TRANSFER_OP LOCAL_COMM_RES "
    "REMOTE_COMM_RES\n"
    "  comm res: '{\"location\":\"device\",\"protocol\":\"hccs|roce\",\"addr\":\"10.10.10.0\"}' (HIXL-CS)\n";

// Whether an engine argument is "ip:port" (an IPv6 address is bracketed: "[::1]:16000").
bool names_port(const std::string& text) {
  if (!text.empty() && text.front() == '[') return text.find("]:") != std::string::npos;
  return std::count(text.begin(), text.end(), ':') == 1;
}

struct CommRes {
  std::string location, protocol;
};

// One of HIXL-CS's communication-resource arguments: a JSON object whose protocol names the link.
CommRes parse_comm_res(const std::string& text, const char* name) {
  const auto rule = fmt::format("{} {}: expected a JSON object such as {{\"location\": \"device\", \"protocol\": "
                                "\"hccs\", \"addr\": \"10.10.10.0\"}}",
                                name, text);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    throw UsageError(rule);
  }
  if (!j.is_object() || !j.contains("protocol") || !j["protocol"].is_string()) throw UsageError(rule);
  CommRes r;
  r.protocol = j["protocol"].get<std::string>();
  if (j.contains("location")) {
    if (!j["location"].is_string()) throw UsageError(rule);
    r.location = j["location"].get<std::string>();
    if (r.location != "host" && r.location != "device") {
      throw UsageError(fmt::format("{}: location {}: expected host or device", name, r.location));
    }
  }
  if (r.protocol != "hccs" && r.protocol != "roce" && r.protocol != "ub_ctp" && r.protocol != "ub_tp") {
    throw UsageError(fmt::format("{}: protocol {}: expected hccs, roce, ub_ctp or ub_tp", name, r.protocol));
  }
  return r;
}

const Metric& metric_of(const CaseResult& r, std::string_view name) {
  const Metric* m = r.find_metric(name);
  if (m == nullptr) throw std::logic_error(fmt::format("hixl renderer: the result lacks the metric {}", name));
  return *m;
}

}  // namespace

FlagWords hixl_flag_words() {
  return native_flag_words().with({
      {"xfer.control_client", "tcp_port"}, {"xfer.control_server", "tcp_port"}, {"xfer.data", "local_engine"},
      {"xfer.transport", "XFERBENCH_HIXL_TRANSPORT"}, {"xfer.mode", "transfer_mode"}, {"xfer.op", "transfer_op"},
      {"xfer.block", "block size"}, {"xfer.total", "XFERBENCH_HIXL_TOTAL (kTransferMemSize)"},
      {"xfer.wait", "XFERBENCH_HIXL_WAIT (kWaitTransTime)"}, {"xfer.iters", "iters"}, {"xfer.device", "device_id"},
  });
}

XferPlan parse_hixl(const std::vector<std::string>& args, const HixlSettings& settings, HixlForm* form) {
  if (std::find(args.begin(), args.end(), "--help") != args.end() ||
      std::find(args.begin(), args.end(), "-h") != args.end()) {
    throw HelpRequested(kUsage);
  }
  if (args.size() == 9) {
    throw Unavailable(fmt::format("test_case {}: a ninth argument names a fault-injection case of HIXL-CS's exception "
                                  "benchmark; xferbench injects no faults",
                                  args[8]));
  }
  if (args.size() != 7 && args.size() != 8) {
    throw UsageError(fmt::format("expected 7 arguments, got {}: device_id local_engine remote_engine tcp_port "
                                 "transfer_mode transfer_op use_buffer_pool (or 8: ... transfer_op local_comm_res "
                                 "remote_comm_res)",
                                 args.size()));
  }
  const bool comm_res = args.size() == 8;
  const std::string& local = args[1];
  const std::string& remote = args[2];
  XferPlan p;
  p.device = static_cast<int>(parse_count(args[0], "device_id", 0, 1023));
  const bool local_port = names_port(local), remote_port = names_port(remote);
  if (local_port == remote_port) {
    throw UsageError(fmt::format("local_engine {} / remote_engine {}: exactly one carries a port (client: local_engine "
                                 "ip, remote_engine ip:port; server: local_engine ip:port, remote_engine ip)",
                                 local, remote));
  }
  const std::uint16_t tcp_port = parse_port(args[3], "tcp_port");
  if (local_port) {
    p.role = XferRole::server;
    // The engine's port is the transport's listener; 0 lets the kernel pick (announced to the client).
    p.data = parse_address(local, "local_engine", true, true);
    parse_address(remote, "remote_engine", false);
    p.control = SocketAddress{p.data.host, tcp_port};
  } else {
    p.role = XferRole::client;
    parse_address(local, "local_engine", false);
    // The client takes the engine port the server announces on the control channel; the one given
    // here is checked for form only.
    const SocketAddress engine = parse_address(remote, "remote_engine", true);
    p.control = SocketAddress{engine.host, tcp_port};
  }
  const auto mode = xfer_mode_from(args[4]);
  if (!mode) throw UsageError(fmt::format("transfer_mode {}: expected d2d, h2d, d2h or h2h", args[4]));
  const auto op = xfer_op_from(args[5]);
  if (!op) throw UsageError(fmt::format("transfer_op {}: expected write or read", args[5]));
  p.mode = *mode;
  p.op = *op;
  bool network_path = false;
  if (comm_res) {
    const CommRes local_res = parse_comm_res(args[6], "local_comm_res");
    const CommRes remote_res = parse_comm_res(args[7], "remote_comm_res");
    // transfer_mode's first letter is this side's memory, the second the peer's.
    const auto check = [&](const CommRes& c, char letter, const char* name) {
      const std::string want = letter == 'd' ? "device" : "host";
      if (!c.location.empty() && c.location != want) {
        throw UsageError(fmt::format("{}: location {}, but transfer_mode {} puts that side's memory on the {}", name,
                                     c.location, args[4], want));
      }
    };
    check(local_res, args[4][p.role == XferRole::client ? 0 : 1], "local_comm_res");
    check(remote_res, args[4][p.role == XferRole::client ? 1 : 0], "remote_comm_res");
    if (local_res.protocol != remote_res.protocol) {
      throw UsageError(fmt::format("local_comm_res / remote_comm_res: protocols {} and {}; both sides speak one",
                                   local_res.protocol, remote_res.protocol));
    }
    if (local_res.protocol.rfind("ub_", 0) == 0) {
      throw Unavailable(fmt::format("local_comm_res: protocol {}: Huawei's UB interconnect; xferbench's transports "
                                    "have no UB path",
                                    local_res.protocol));
    }
    network_path = local_res.protocol == "roce";
    p.pool = false;
  } else {
    p.pool = parse_bool(args[6], "use_buffer_pool");
  }
  if (form != nullptr) *form = HixlForm{comm_res, network_path};
  // HIXL's server is started with the same mode, op and pool as its client: it serves only that.
  p.server_plan = p.role == XferRole::server;
  p.transport = settings.transport;
  p.token = settings.token;
  p.wait = settings.wait;
  p.total = settings.total;
  // HIXL's block sizes (kBaseBlockSize 256K << i for i = 0..kExecuteRepeatNum 5: 256K to 8M), each
  // timed over several passes (the line prints the median); the latency pass is the native command's.
  p.blocks = {256u << 10, 512u << 10, 1u << 20, 2u << 20, 4u << 20, 8u << 20};
  if (comm_res) p.blocks = {1u << 20, 2u << 20, 4u << 20, 8u << 20};  // HIXL-CS's ladder
  p.iters = settings.passes;
  p.warmup = 1;
  p.latency = false;
  return p;
}

std::string render_hixl_line(const CaseResult& c) {
  return fmt::format("[INFO] Transfer success, block size: {} Bytes, transfer num: {}, time cost: {} us, "
                     "throughput: {:.3f} GB/s\n",
                     c.config.get<XferClientConfig>().block,
                     static_cast<std::uint64_t>(metric_of(c, "transfers").value),
                     std::llround(metric_of(c, "time_cost_median").value), metric_of(c, "throughput_median").value);
}

std::string hixl_ucx_tls(const HixlSettings& settings, bool rdma_here) {
  if (!settings.roce || settings.transport != "ucx") return "";
  return rdma_here ? "rc,ud" : "tcp";
}

std::string render_hixl_path_note(const CaseResult& c, std::string_view network_reason) {
  const TransportInfo t = c.config.get<XferClientConfig>().transport;
  const std::string& lanes = t.lanes;
  return fmt::format("benchmark: {} moved the data: {}{}\n",
                     network_reason.empty() ? std::string("the intra-node path")
                                            : fmt::format("the network path ({})", network_reason),
                     t.name, lanes.empty() ? "" : " over " + lanes);
}

std::string render_hixl_server_ready(std::uint16_t tcp_port, const std::string& engine) {
  return fmt::format("[INFO] Server ready, tcp port: {}, local engine: {}\n", tcp_port, engine);
}

std::string render_hixl_server_done(const CaseResult& c) {
  return fmt::format("[INFO] Server finished, remote engine: {}, regions: {}, bytes: {}\n",
                     c.config.get<XferServerConfig>().client,
                     static_cast<std::uint64_t>(metric_of(c, "regions").value),
                     static_cast<std::uint64_t>(metric_of(c, "exposed_bytes").value));
}

}  // namespace xb
