#include "dialects/dev_sandbox_trans.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

constexpr const char* kDirections[] = {"H2D", "D2H"};
constexpr const char* kHostTypes[] = {"normal", "anonymous", "registered"};
constexpr const char* kDeviceTypes[] = {"normal"};

// A UCM transport method and what it is on our backends: the engine it copies with, whether the
// stream's blocks go in one batch submission, how many streams, and which backend has it (UCM:
// ce and batch_ce on CUDA and Ascend, sm on CUDA, ms_48 on Ascend, memcpy on its CPU simulation).
struct Method {
  const char* name;
  const char* engine;
  bool batch;
  int streams;
  const char* only_on;  // "" = any backend whose engines include `engine`
};
constexpr Method kMethods[] = {
    {"ce", "ce", false, 1, ""},       {"batch_ce", "ce", true, 1, ""}, {"sm", "sm", false, 1, "cuda"},
    {"ms_48", "ce", false, 48, "acl"}, {"memcpy", "memcpy", false, 1, "cpu"},
};

bool has(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

bool method_on(const Method& m, const TransBackend& b) {
  if (*m.only_on != '\0' && b.name != m.only_on) return false;
  if (m.batch && !b.batch_submit) return false;
  return has(b.engines, m.engine);
}

// The case name: UCM's own are not published; ours spell the four axes in their order.
std::string case_name(std::string_view dir, std::string_view host, std::string_view device, std::string_view method) {
  std::string d(dir);
  std::transform(d.begin(), d.end(), d.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return fmt::format("{}_{}_host_{}_device_{}", d, host, device, method);
}

HostMemoryKind host_kind(std::string_view host) {
  // normal: malloc'd pageable memory; anonymous: mmap'd, not registered — our pageable buffers are
  // anonymous mappings already, so the two are the same memory here (docs/copy.md); registered: locked
  // and registered with the device (the copy job registers every kind but pageable).
  return host == "registered" ? HostMemoryKind::pinned : HostMemoryKind::pageable;
}

void check_values(const std::vector<std::string>& given, const std::vector<std::string>& allowed, const char* flag) {
  for (const auto& v : given) {
    if (!has(allowed, v)) throw UsageError(fmt::format("{} {}: expected one of {}", flag, v, fmt::join(allowed, ", ")));
  }
}

}  // namespace

TransFilters parse_dev_sandbox_trans(const std::vector<std::string>& args) {
  CLI::App app{"UCM dev-sandbox trans: host/device transfer matrix (xferbench dialect)", "trans"};
  TransFilters f;
  std::string size = "32768", number = "1024", devices = "8", iterations = "1024";
  app.add_option("-H", f.host, "host buffer type, repeatable: normal, anonymous, registered (default all)");
  app.add_option("-D", f.device, "device buffer type, repeatable: normal (default all)");
  app.add_option("-M", f.methods, "transport method, repeatable: ce, batch_ce, sm, ms_48, memcpy (default all)");
  app.add_option("-t", f.direction, "direction: H2D, D2H or ANY (default ANY)");
  app.add_option("-s", size, "one transfer, bytes (default 32768)");
  app.add_option("-n", number, "transfers per buffer (default 1024)");
  app.add_option("-d", devices, "devices (default 8)");
  app.add_option("-i", iterations, "iterations (default 1024)");
  app.add_flag("--verify", f.verify, "xferbench extension: check every destination byte after the run");
  parse_args(app, args);
  check_values(f.host, {std::begin(kHostTypes), std::end(kHostTypes)}, "-H");
  check_values(f.device, {std::begin(kDeviceTypes), std::end(kDeviceTypes)}, "-D");
  std::vector<std::string> methods;
  for (const auto& m : kMethods) methods.emplace_back(m.name);
  check_values(f.methods, methods, "-M");
  check_values(f.direction, {"H2D", "D2H", "ANY"}, "-t");
  if (has(f.direction, "ANY")) f.direction.clear();
  f.size = parse_size(size, "-s");
  if (f.size == 0) throw UsageError("-s 0: a transfer needs at least one byte");
  f.number = parse_count(number, "-n", 1, 1u << 24);
  f.devices = static_cast<int>(parse_count(devices, "-d", 1, 1024));
  f.iterations = parse_count(iterations, "-i", 1, 100'000'000);
  return f;
}

std::vector<DevSandboxRequest> dev_sandbox_trans_cases(const TransFilters& f, const TransBackend& backend,
                                                       std::vector<std::string>& skipped) {
  const auto wanted = [](const std::vector<std::string>& filter, std::string_view v) {
    return filter.empty() || has(filter, v);
  };
  std::vector<DevSandboxRequest> out;
  std::vector<std::string> available;  // every case of this backend, for the answer when none matches
  for (const char* dir : kDirections) {
    for (const char* host : kHostTypes) {
      for (const char* device : kDeviceTypes) {
        for (const Method& m : kMethods) {
          const std::string name = case_name(dir, host, device, m.name);
          const bool here = method_on(m, backend);
          if (here) available.push_back(name);
          if (!wanted(f.direction, dir) || !wanted(f.host, host) || !wanted(f.device, device)) continue;
          if (!here) {
            // Asked for by name and absent: said once per method. Not asked for: simply not this backend's.
            if (has(f.methods, m.name) && !has(skipped, m.name)) skipped.emplace_back(m.name);
            continue;
          }
          if (!wanted(f.methods, m.name)) continue;
          DevSandboxRequest r;
          CopyPlan& p = r.plan;
          p.direction = std::string_view(dir) == "H2D" ? CopyDirection::h2d : CopyDirection::d2h;
          p.topology = CopyTopology::per_device;
          p.host_kind = host_kind(host);
          p.engine = m.engine;
          p.batch = m.batch;
          p.streams = m.streams;
          p.block_bytes = f.size;
          p.blocks = f.number;
          p.iterations = f.iterations;
          p.devices = f.devices;
          p.verify = f.verify;
          // The host end by its trans type ("cpu::registered": the copy job's "cpu::pageable::all"
          // fills the 18-character column and would touch the next).
          const std::string host_end = fmt::format("{}::{}", backend.name, host);
          const std::string device_end = fmt::format("{}::device::all", backend.name);
          const bool h2d = p.direction == CopyDirection::h2d;
          r.which = {name, fmt::format("{} from {} host to {} device with {}", dir, host, device, m.name), m.name,
                     h2d ? host_end : device_end, h2d ? device_end : host_end};
          out.push_back(std::move(r));
        }
      }
    }
  }
  if (out.empty()) {
    throw Unavailable(fmt::format("trans: no case matches on the {} backend{}; its cases are {}", backend.name,
                                  skipped.empty() ? "" : fmt::format(" ({} needs another backend)", fmt::join(skipped, ", ")),
                                  fmt::join(available, ", ")));
  }
  return out;
}

}  // namespace xb
