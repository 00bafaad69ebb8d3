#include "dialects/ascend_dmi.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>

#include "cli/args.hpp"
#include "cli/native_flag_words.hpp"
#include "core/error.hpp"
#include "runtime/shared_dir_rendezvous.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/p2p/p2p_two_nodes.hpp"

namespace xb {
namespace {

// Every spelling of the seed's table, by the key the parser keeps. `value`: takes an argument.
struct Spelling {
  const char* key;
  bool value;
  std::array<const char*, 3> names;  // nullptr-padded
};

constexpr Spelling kSpellings[] = {
    {"bw", false, {"-bw", "--bw", "--bandwidth"}},
    {"t", true, {"-t", "--type", nullptr}},
    {"sp", true, {"-sp", "--sp", "--super-pod"}},
    {"ip", true, {"-ip", "--ip", "--peer-ip"}},
    {"hip", true, {"-hip", "--hip", "--host-ip"}},
    {"spp", true, {"-spp", "--spp", "--super-pod-path"}},
    {"ds", true, {"-ds", "--ds", "--device-src"}},
    {"dd", true, {"-dd", "--dd", "--device-dst"}},
    {"m", true, {"-m", "--mode", nullptr}},
    {"d", true, {"-d", "--device", nullptr}},
    {"s", true, {"-s", "--size", nullptr}},
    {"et", true, {"-et", "--et", "--execute-times"}},
    {"fmt", true, {"-fmt", "--fmt", "--format"}},
    {"q", false, {"-q", "--quiet", nullptr}},
    {"h", false, {"-h", "--help", nullptr}},
};

const Spelling* find_spelling(std::string_view name) {
  for (const auto& s : kSpellings) {
    for (const char* n : s.names) {
      if (n != nullptr && name == n) return &s;
    }
  }
  return nullptr;
}

// What was given: per key the spelling typed and the value.
struct Given {
  std::string flag;
  std::string value;
};
using GivenMap = std::map<std::string, Given, std::less<>>;

GivenMap scan(const std::vector<std::string>& args) {
  GivenMap given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::optional<std::string> inline_value;
    if (const auto eq = name.find('='); name.rfind("-", 0) == 0 && eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    const Spelling* s = find_spelling(name);
    if (s == nullptr) {
      throw UsageError(fmt::format("{}: not an option of ascend-dmi --bw (see --help)", args[i]));
    }
    if (given.count(s->key)) {
      throw UsageError(fmt::format("{}: given twice (also as {})", name, given.at(s->key).flag));
    }
    Given g{name, ""};
    if (s->value) {
      if (inline_value) {
        g.value = *inline_value;
      } else if (i + 1 < args.size() && !args[i + 1].empty() && find_spelling(args[i + 1]) == nullptr) {
        g.value = args[++i];
      } else {
        throw UsageError(fmt::format("{}: a value must follow it", name));
      }
    } else if (inline_value) {
      throw UsageError(fmt::format("{}: takes no value", name));
    }
    given.emplace(s->key, std::move(g));
  }
  return given;
}

// A whole number in [min, max], digits only ("After -s is specified, a number must be followed").
std::uint64_t number(const Given& g, std::uint64_t min, std::uint64_t max, std::string_view what) {
  const std::string& v = g.value;
  const bool digits = !v.empty() && v.size() <= 20 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
  std::uint64_t n = 0;
  bool in_range = digits;
  if (digits) {
    errno = 0;
    const unsigned long long parsed = std::strtoull(v.c_str(), nullptr, 10);
    in_range = errno == 0 && parsed >= min && parsed <= max;
    n = parsed;
  }
  if (!in_range) throw UsageError(fmt::format("{} {}: expected {} from {} to {}", g.flag, v, what, min, max));
  return n;
}

std::string ip_address(const Given& g) {
  check_p2p_ip(g.value, g.flag);
  return g.value;
}

const Given* find(const GivenMap& m, std::string_view key) {
  const auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

// -t h2d|d2h|d2d, or no -t: the copy test. Only -d, -s, --et, --fmt and -q belong to it.
AscendDmiCopies parse_copies(const GivenMap& g, const Given* type) {
  AscendDmiCopies c;
  if (type == nullptr) {
    c.directions = {CopyDirection::h2d, CopyDirection::d2h, CopyDirection::d2d};
  } else if (type->value == "h2d") {
    c.directions = {CopyDirection::h2d};
  } else if (type->value == "d2h") {
    c.directions = {CopyDirection::d2h};
  } else if (type->value == "d2d") {
    c.directions = {CopyDirection::d2d};
  } else {
    throw UsageError(fmt::format("{} {}: expected h2d, d2h, d2d or p2p", type->flag, type->value));
  }
  for (const char* key : {"sp", "ip", "hip", "spp", "ds", "dd", "m"}) {
    if (const Given* only_p2p = find(g, key)) {
      throw UsageError(fmt::format("{}: only with -t p2p (the host and device bandwidth test takes -d, -s, --et, "
                                   "--fmt and -q)",
                                   only_p2p->flag));
    }
  }
  if (const Given* d = find(g, "d")) c.device = static_cast<int>(number(*d, 0, kP2pMaxDevices - 1, "a device ID"));
  const Given* s = find(g, "s");
  c.sizes = s ? std::vector<std::uint64_t>{number(*s, 1, kP2pMaxSize, "a number of bytes")} : ascend_dmi_step_sizes();
  c.executions = s ? 40 : 5;
  if (const Given* et = find(g, "et")) c.executions = number(*et, 1, kP2pMaxExecutions, "a whole number");
  return c;
}

}  // namespace

std::vector<std::uint64_t> ascend_dmi_step_sizes() {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = 2; s <= (std::uint64_t{32} << 20); s *= 2) sizes.push_back(s);
  return sizes;
}

FlagWords ascend_dmi_flag_words() {
  return native_flag_words().with({
      {"copy.size", "-s"}, {"copy.iterations", "--et"}, {"copy.devices", "-d"}, {"copy.first_device", "-d"},
      {"p2p.size", "-s"}, {"p2p.executions", "--et"},
      {"p2p.warmup", "--et"},  // never asked for: the dialect keeps the default warm-up
      {"p2p.src", "--ds"}, {"p2p.dst", "--dd"}, {"p2p.devices", "-d"}, {"p2p.engine", "-m"}, {"p2p.card", "-m"},
  });
}


std::string ascend_dmi_usage() {
  return "Usage: ascend-dmi --bw [-t h2d|d2h|d2d] [-d ID] [-s SIZE] [--et TIMES] [--fmt normal|json] [-q]\n"
         "       ascend-dmi --bw -t p2p [--sp 0|1 --ip PEER_IP --hip HOST_IP [--spp DIR] [-d ID] | --sp 2 --ds ID "
         "--dd ID] [--ds ID --dd ID] [-m device|card] [-s SIZE] [--et TIMES] [--fmt normal|json] [-q]\n"
         "  -bw, --bw, --bandwidth               Measures the processor bandwidth.\n"
         "  -t, --type                           Type of data flow: h2d, d2h, d2d (without -t: all three) or p2p.\n"
         "  -sp, --sp, --super-pod               SuperPoD test: 0 source node, 1 peer node (with --ip and --hip), 2 "
         "MPI mode (with --ds and --dd).\n"
         "  -ip, --ip, --peer-ip                 IP address of the peer node.\n"
         "  -hip, --hip, --host-ip               IP address of this node.\n"
         "  -spp, --spp, --super-pod-path        Shared directory of both nodes (no access for group or others, no "
         "wildcard).\n"
         "  -ds, --ds, --device-src              Source device ID (with --dd).\n"
         "  -dd, --dd, --device-dst              Destination device ID (with --ds).\n"
         "  -m, --mode                           device (default) or card.\n"
         "  -d, --device                         Device ID of the h2d/d2h/d2d test, or of this node in a --sp 0/1 "
         "test (default 0); not with --ds/--dd.\n"
         "  -s, --size                           Bytes per execution, 1 to 4294967296 (p2p default 536870912; "
         "h2d/d2h/d2d: without -s the step mode, 2 B to 32 MiB).\n"
         "  -et, --et, --execute-times           Executions, 1 to 100000000 (default 40; 5 in the step mode).\n"
         "  -fmt, --fmt                          Output format: normal (default) or json.\n"
         "  -q, --quiet                          No notes on stderr.\n"
         "\n"
         "xferbench: without --sp the pair --ds -> --dd of this node is measured through the device backend's peer "
         "copy, and without --ds/--dd every pair (the matrix; 128 MiB unless -s); a card is one device on the cpu "
         "and CUDA backends. h2d/d2h/d2d run the copy job on device -d; Elapsed Time(us) is the total of the "
         "executions.\n";
}

AscendDmiRequest parse_ascend_dmi(const std::vector<std::string>& args) {
  const GivenMap g = scan(args);
  if (find(g, "h")) throw HelpRequested(ascend_dmi_usage());
  if (!find(g, "bw")) throw UsageError("--bw: required (ascend-dmi --bw: the bandwidth test)");
  AscendDmiRequest r;
  r.quiet = find(g, "q") != nullptr;
  if (const Given* f = find(g, "fmt")) {
    if (f->value != "normal" && f->value != "json") {
      throw UsageError(fmt::format("{} {}: expected normal or json", f->flag, f->value));
    }
    r.json = f->value == "json";
  }
  const Given* type = find(g, "t");
  if (type == nullptr || type->value != "p2p") {
    r.copies = parse_copies(g, type);
    return r;
  }

  P2pPlan& p = r.plan;
  p.unidirectional = true;
  p.bidirectional = true;
  if (const Given* s = find(g, "s")) p.size = number(*s, 1, kP2pMaxSize, "a number of bytes");
  if (const Given* et = find(g, "et")) p.executions = number(*et, 1, kP2pMaxExecutions, "a whole number");
  if (const Given* m = find(g, "m")) {
    if (m->value != "device" && m->value != "card") {
      throw UsageError(fmt::format("{} {}: expected device or card", m->flag, m->value));
    }
    r.card = m->value == "card";
  }

  const Given* d = find(g, "d");
  const Given* ds = find(g, "ds");
  const Given* dd = find(g, "dd");
  if (d && (ds || dd)) {
    throw UsageError(fmt::format("{}: not with {} (-d names the device of each node; --ds/--dd a source and a "
                                 "destination)",
                                 d->flag, ds ? ds->flag : dd->flag));
  }
  if (ds && !dd) throw UsageError(fmt::format("{}: must be given together with --dd", ds->flag));
  if (dd && !ds) throw UsageError(fmt::format("{}: must be given together with --ds", dd->flag));
  constexpr std::uint64_t kMaxId = kP2pMaxDevices - 1;
  if (ds) p.pairs = {{static_cast<int>(number(*ds, 0, kMaxId, "a device ID")), static_cast<int>(number(*dd, 0, kMaxId, "a device ID"))}};

  const Given* sp = find(g, "sp");
  const Given* ip = find(g, "ip");
  const Given* hip = find(g, "hip");
  const Given* spp = find(g, "spp");
  if (sp) {
    if (sp->value != "0" && sp->value != "1" && sp->value != "2") {
      throw UsageError(fmt::format("{} {}: expected 0 (source node), 1 (peer node) or 2 (MPI mode)", sp->flag, sp->value));
    }
    r.super_pod = sp->value[0] - '0';
  }
  if (r.super_pod == 0 || r.super_pod == 1) {
    if (!ip || !hip) {
      throw UsageError(fmt::format("{} {}: needs --ip (the peer node's IP address) and --hip (this node's)", sp->flag,
                                   sp->value));
    }
    if (ds) throw UsageError(fmt::format("{}: not with {} {} (each node names its own device with -d)", ds->flag, sp->flag, sp->value));
    r.peer_ip = ip_address(*ip);
    r.host_ip = ip_address(*hip);
    if (d) r.device = static_cast<int>(number(*d, 0, kMaxId, "a device ID"));
    if (spp) {
      check_shared_dir(spp->value, spp->flag);
      r.shared_dir = spp->value;
    }
    r.meet = spp ? AscendDmiMeet::shared_dir : AscendDmiMeet::peer_ip;
    p.pairs = {{r.device, r.device}};
    p.across_nodes = true;
    return r;
  }
  for (const Given* only01 : {ip, hip, spp}) {
    if (only01) {
      throw UsageError(fmt::format("{}: only with --sp 0 or 1 (a SuperPoD test started on both nodes){}", only01->flag,
                                   r.super_pod == 2 ? ", not in MPI mode (--sp 2)" : ""));
    }
  }
  if (r.super_pod == 2) {
    if (!ds) throw UsageError(fmt::format("{} 2: needs --ds and --dd (the device of rank 0 and of rank 1)", sp->flag));
    if (d) throw UsageError(fmt::format("{}: not with {} 2 (MPI mode names the devices with --ds and --dd)", d->flag, sp->flag));
    r.meet = AscendDmiMeet::mpi;
    p.across_nodes = true;
    return r;
  }
  if (d) {
    throw UsageError(fmt::format("{}: names each node's device in a SuperPoD test (--sp 0/1); within this node name "
                                 "the pair with --ds and --dd",
                                 d->flag));
  }
  r.meet = AscendDmiMeet::local;
  if (!ds) {
    // Neither --ds/--dd nor -d: every pair of this node, as the real tool's matrix. It ignores -s,
    // --et and --fmt there; xferbench honours -s and --et (a run can be scaled) and, as the tool,
    // prints the matrix as text.
    p.all_pairs = true;
    if (!find(g, "s")) p.size = kAscendDmiMatrixSize;
    r.json_ignored = r.json;
    r.json = false;
  }
  return r;
}

std::string render_ascend_dmi_block(bool bidirectional, const AscendDmiPod& from, const AscendDmiPod& to,
                                    std::uint64_t size, std::uint64_t times, double bandwidth_gbps,
                                    double elapsed_us) {
  const std::string rule(64, '-');
  return fmt::format(
      "{} Peer to Peer Test\n"
      "Pod: {} {} id: {} {} Pod: {} {} id: {}\n"
      "{}\n"
      "  Size(Bytes)  Execute Times  Bandwidth(GB/s)  Elapsed Time(us)\n"
      "{}\n"
      "{:>12}{:>11}{:>20.6f}{:>14.2f}\n"
      "{}\n"
      "\n",
      bidirectional ? "Bidirectional" : "Unidirectional", from.pod, from.unit, from.id, bidirectional ? "and" : "to",
      to.pod, to.unit, to.id, rule, rule, size, times, bandwidth_gbps, elapsed_us, rule);
}

std::string render_ascend_dmi_block(const CaseResult& c, const AscendDmiPod& from, const AscendDmiPod& to) {
  const bool bidirectional = c.label("direction") == "bidirectional";
  if (c.status != CaseStatus::ok) {
    return fmt::format("{} Peer to Peer Test\nPod: {} {} id: {} {} Pod: {} {} id: {}: {}: {}\n\n",
                       bidirectional ? "Bidirectional" : "Unidirectional", from.pod, from.unit, from.id,
                       bidirectional ? "and" : "to", to.pod, to.unit, to.id, to_string(c.status), c.status_reason);
  }
  const auto metric = [&](std::string_view name) {
    const Metric* m = c.find_metric(name);
    if (m == nullptr) throw std::logic_error(fmt::format("ascend-dmi: the p2p case has no metric {}", name));
    return m->value;
  };
  return render_ascend_dmi_block(bidirectional, from, to, c.config.get<P2pConfig>().size_bytes,
                                 static_cast<std::uint64_t>(metric("executions")), metric("bandwidth"),
                                 metric("elapsed_avg"));
}

}  // namespace xb
