#include "dialects/dev_sandbox.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

// The seed's columns: fixed widths, left-aligned, no separator (so "CE-MS-FORK" and the size touch).
constexpr const char* kRowFormat = "  {:<18}{:<18}{:<10}{:<10}{:<8}{:<40}{:<44}{}";

// Untimed iterations before the seed's -i timed ones (the seed does not say; a few steady the caches).
constexpr std::uint64_t kWarmup = 4;

std::string five_stats(const Summary& s) {
  return fmt::format("{:.0f} / {:.0f} / {:.0f} / {:.0f} / {:.0f}", s.min, s.max, s.avg, s.p50, s.p90);
}

std::string size_kb(std::uint64_t bytes) {
  return bytes % 1024 == 0 ? fmt::format("{}", bytes / 1024) : fmt::format("{:.3f}", static_cast<double>(bytes) / 1024.0);
}

}  // namespace

DevSandboxCase dev_sandbox_case(bool mla, bool iodirect, bool sdma) {
  const std::string from_name = mla ? "one_share_host" : iodirect ? "all_odirect_host" : "all_host";
  const std::string from_text = mla ? "one shared host" : iodirect ? "all O_DIRECT host" : "all host";
  const std::string engine_name = sdma ? "sdma" : "ce_multi_stream";
  const std::string engine_text = sdma ? "ffts direct h2d sdma" : "ce using multi stream";
  return {fmt::format("{}_to_all_device_{}", from_name, engine_name),
          fmt::format("memcpy from {} to all device with {} and fork submit", from_text, engine_text),
          sdma ? "SDMA-FORK" : "CE-MS-FORK"};
}

DevSandboxRequest parse_dev_sandbox(const std::vector<std::string>& args) {
  CLI::App app{"UCM dev-sandbox: host-to-device copy bandwidth (xferbench dialect)", "dev-sandbox"};
  std::string model, iodirect, sdma, size = "512M", blocks = "8", iterations = "128", devices = "8", fragments = "0";
  app.add_option("--model-type", model, "gqa or mla");
  app.add_option("--iodirect", iodirect, "true or false");
  app.add_option("--sdma", sdma, "true or false");
  app.add_option("-s", size, "block size (default 512M)");
  app.add_option("-n", blocks, "blocks (default 8)");
  app.add_option("-i", iterations, "iterations (default 128)");
  app.add_option("-d", devices, "cards (default 8)");
  app.add_option("-f", fragments, "fragments, SDMA cases only (default 0)");
  // Not in the seed: xferbench's own check of every destination byte, harmless to the seed's scripts.
  bool verify = false;
  app.add_flag("--verify", verify, "xferbench extension: check every destination byte after the run");
  parse_args(app, args);

  if (model.empty()) throw UsageError("--model-type: required, expected gqa or mla");
  if (model != "gqa" && model != "mla") throw UsageError(fmt::format("--model-type {}: expected gqa or mla", model));
  if (iodirect.empty()) throw UsageError("--iodirect: required, expected true or false");
  if (sdma.empty()) throw UsageError("--sdma: required, expected true or false");
  const bool mla = model == "mla";
  const bool odirect = parse_bool(iodirect, "--iodirect");
  const bool use_sdma = parse_bool(sdma, "--sdma");

  DevSandboxRequest r;
  CopyPlan& p = r.plan;
  p.direction = CopyDirection::h2d;
  p.topology = mla ? CopyTopology::shared : CopyTopology::per_device;
  // GQA's normal host memory is pinned, one buffer per card; --iodirect loads it with O_DIRECT.
  // MLA's one buffer is POSIX shared memory whatever --iodirect says.
  p.host_kind = mla ? HostMemoryKind::shm : odirect ? HostMemoryKind::odirect : HostMemoryKind::pinned;
  // Multi-stream CE is four streams; SDMA is the batch path (one submission per stream).
  p.streams = 4;
  p.batch = use_sdma;
  p.block_bytes = parse_size(size, "-s");
  p.blocks = parse_count(blocks, "-n", 1, 1u << 24);
  p.iterations = parse_count(iterations, "-i", 1, 100'000'000);
  p.devices = static_cast<int>(parse_count(devices, "-d", 1, 1024));
  p.fragments = parse_count(fragments, "-f", 0, 65536);
  p.warmup = kWarmup;
  p.verify = verify;
  r.which = dev_sandbox_case(mla, odirect && !mla, use_sdma);
  return r;
}

std::string render_dev_sandbox(const CaseResult& result, const DevSandboxCase& which) {
  const Series* submit = result.find_series("submit");
  const Series* copy = result.find_series("copy");
  const Metric* bw = result.find_metric("bandwidth");
  if (submit == nullptr || copy == nullptr || bw == nullptr) {
    throw std::logic_error("dev-sandbox renderer: the result lacks submit, copy or bandwidth");
  }
  const std::uint64_t block = result.config.at("block_bytes").get<std::uint64_t>();
  std::string text = fmt::format("[[ {} ]] {}\n", which.name, which.title);
  text += fmt::format(kRowFormat, "From", "To", "Method", "Size(KB)", "Count", "Submit(us)-(Min/Max/Avg/P50/P90)",
                      "Copy(us)-(Min/Max/Avg/P50/P90)", "BW(GB/s)");
  text += '\n';
  text += fmt::format(kRowFormat, result.label("from"), result.label("to"), which.method, size_kb(block),
                      result.label("count"), five_stats(submit->summary), five_stats(copy->summary),
                      fmt::format("{:.3f}", bw->value));
  text += '\n';
  return text;
}

}  // namespace xb
