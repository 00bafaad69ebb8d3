#include "dialects/dev_sandbox.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/copy/copy_config.hpp"

namespace xb {
namespace {

// The seed's columns: fixed widths, left-aligned, no separator (so "CE-MS-FORK" and the size touch).
constexpr const char* kRowFormat = "  {:<18}{:<18}{:<10}{:<10}{:<8}{:<40}{:<44}{}";

// Untimed iterations before the seed's -i timed ones (the seed does not say; a few steady the caches).
constexpr std::uint64_t kWarmup = 4;

std::string five_stats(const Summary& s) {
  return fmt::format("{:.0f} / {:.0f} / {:.0f} / {:.0f} / {:.0f}", s.min, s.max, s.avg, s.p50, s.p90);
}

}  // namespace

std::string dev_sandbox_size_kb(std::uint64_t bytes) {
  return bytes % 1024 == 0 ? fmt::format("{}", bytes / 1024) : fmt::format("{:.3f}", static_cast<double>(bytes) / 1024.0);
}

DevSandboxCase dev_sandbox_case(bool mla, bool iodirect, bool sdma) {
  const std::string from_name = mla ? "one_share_host" : iodirect ? "all_odirect_host" : "all_host";
  const std::string from_text = mla ? "one shared host" : iodirect ? "all O_DIRECT host" : "all host";
  // UCM's own names: the SDMA cases are its FFTS direct H2D path, method "ffts-direct-h2d".
  const std::string engine_name = sdma ? "ffts_direct_h2d" : "ce_multi_stream";
  const std::string engine_text = sdma ? "ffts direct h2d sdma" : "ce using multi stream";
  return {fmt::format("{}_to_all_device_{}", from_name, engine_name),
          fmt::format("memcpy from {} to all device with {} and fork submit", from_text, engine_text),
          sdma ? "ffts-direct-h2d" : "CE-MS-FORK"};
}

namespace {

struct CaseKey {
  bool mla, iodirect, sdma;
};
// The six distinct cases (MLA ignores --iodirect), in UCM's order.
constexpr CaseKey kCases[] = {{false, false, false}, {false, true, false}, {true, false, false},
                              {false, false, true},  {false, true, true},  {true, false, true}};

std::string case_names() {
  std::string s;
  for (const auto& k : kCases) s += (s.empty() ? "" : ", ") + dev_sandbox_case(k.mla, k.iodirect, k.sdma).name;
  return s;
}

struct RunFlags {
  std::string size = "512M", blocks = "8", iterations = "128", devices = "8", fragments = "0";
  bool verify = false;
};

void add_run_flags(CLI::App& app, RunFlags& f) {
  app.add_option("-s", f.size, "block size (default 512M)");
  app.add_option("-n", f.blocks, "blocks (default 8)");
  app.add_option("-i", f.iterations, "iterations (default 128)");
  app.add_option("-d", f.devices, "cards (default 8)");
  app.add_option("-f,--frags", f.fragments, "fragments, SDMA cases only (default 0)");
  // Not UCM's: xferbench's own check of every destination byte, harmless to existing scripts.
  app.add_flag("--verify", f.verify, "xferbench extension: check every destination byte after the run");
}

DevSandboxRequest make_request(const CaseKey& k, const RunFlags& f) {
  DevSandboxRequest r;
  CopyPlan& p = r.plan;
  p.direction = CopyDirection::h2d;
  p.topology = k.mla ? CopyTopology::shared : CopyTopology::per_device;
  // GQA's normal host memory is pinned, one buffer per card; --iodirect loads it with O_DIRECT.
  // MLA's one buffer is POSIX shared memory whatever --iodirect says.
  p.host_kind = k.mla ? HostMemoryKind::shm : k.iodirect ? HostMemoryKind::odirect : HostMemoryKind::pinned;
  // Multi-stream CE is four streams; SDMA is the batch path (one submission per stream).
  p.streams = 4;
  p.batch = k.sdma;
  p.block_bytes = parse_size(f.size, "-s");
  p.blocks = parse_count(f.blocks, "-n", 1, 1u << 24);
  p.iterations = parse_count(f.iterations, "-i", 1, 100'000'000);
  p.devices = static_cast<int>(parse_count(f.devices, "-d", 1, 1024));
  p.fragments = parse_count(f.fragments, "-f", 0, 65536);
  p.warmup = kWarmup;
  p.verify = f.verify;
  r.which = dev_sandbox_case(k.mla, k.iodirect && !k.mla, k.sdma);
  return r;
}

// UCM's copy also spells --frags as -frags (one dash), which no option parser takes as one name.
std::vector<std::string> with_long_frags(std::vector<std::string> args) {
  for (auto& a : args) {
    if (a == "-frags") a = "--frags";
  }
  return args;
}

}  // namespace

std::vector<DevSandboxRequest> parse_dev_sandbox_copy(const std::vector<std::string>& args) {
  CLI::App app{"UCM dev-sandbox copy: host-to-device copy bandwidth of named cases (xferbench dialect)", "copy"};
  std::vector<std::string> names;
  RunFlags f;
  app.add_option("-t", names, "case name (repeatable): " + case_names());
  add_run_flags(app, f);
  parse_args(app, with_long_frags(args));
  if (names.empty()) throw UsageError("-t: required, one or more of " + case_names());
  std::vector<DevSandboxRequest> out;
  for (const auto& name : names) {
    const CaseKey* key = nullptr;
    for (const auto& k : kCases) {
      if (dev_sandbox_case(k.mla, k.iodirect, k.sdma).name == name) key = &k;
    }
    if (key == nullptr) throw UsageError(fmt::format("-t {}: no such case; the cases are {}", name, case_names()));
    out.push_back(make_request(*key, f));
  }
  return out;
}

DevSandboxRequest parse_dev_sandbox(const std::vector<std::string>& args) {
  CLI::App app{"UCM dev-sandbox: host-to-device copy bandwidth (xferbench dialect)", "dev-sandbox"};
  std::string model, iodirect, sdma;
  RunFlags f;
  app.add_option("--model-type", model, "gqa or mla");
  app.add_option("--iodirect", iodirect, "true or false");
  app.add_option("--sdma", sdma, "true or false");
  add_run_flags(app, f);
  parse_args(app, with_long_frags(args));

  if (model.empty()) throw UsageError("--model-type: required, expected gqa or mla");
  if (model != "gqa" && model != "mla") throw UsageError(fmt::format("--model-type {}: expected gqa or mla", model));
  if (iodirect.empty()) throw UsageError("--iodirect: required, expected true or false");
  if (sdma.empty()) throw UsageError("--sdma: required, expected true or false");
  return make_request({model == "mla", parse_bool(iodirect, "--iodirect"), parse_bool(sdma, "--sdma")}, f);
}

std::string render_dev_sandbox(const CaseResult& result, const DevSandboxCase& which) {
  const Series* submit = result.find_series("submit");
  const Series* copy = result.find_series("copy");
  const Metric* bw = result.find_metric("bandwidth");
  if (submit == nullptr || copy == nullptr || bw == nullptr) {
    throw std::logic_error("dev-sandbox renderer: the result lacks submit, copy or bandwidth");
  }
  const std::uint64_t block = result.config.get<CopyConfig>().block_bytes;
  std::string text = fmt::format("[[ {} ]] {}\n", which.name, which.title);
  text += fmt::format(kRowFormat, "From", "To", "Method", "Size(KB)", "Count", "Submit(us)-(Min/Max/Avg/P50/P90)",
                      "Copy(us)-(Min/Max/Avg/P50/P90)", "BW(GB/s)");
  text += '\n';
  text += fmt::format(kRowFormat, which.from.empty() ? result.label("from") : which.from,
                      which.to.empty() ? result.label("to") : which.to, which.method, dev_sandbox_size_kb(block),
                      result.label("count"), five_stats(submit->summary), five_stats(copy->summary),
                      fmt::format("{:.3f}", bw->value));
  text += '\n';
  return text;
}

}  // namespace xb
