#include "dialects/dev_sandbox_aio.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <stdexcept>

#include "cli/args.hpp"
#include "cli/native_flag_words.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "dialects/dev_sandbox.hpp"
#include "jobs/kv/kv_config.hpp"

namespace xb {
namespace {

// The copy summary's widths, with one timing column (per block) instead of Submit and Copy.
constexpr const char* kAioRowFormat = "  {:<18}{:<18}{:<10}{:<10}{:<8}{:<40}{}";

// The seed does not say how many writers UCM's store uses; four matches the copy path's four streams.
constexpr const char* kDefaultThreads = "4";

double metric(const CaseResult& r, std::string_view name) {
  const Metric* m = r.find_metric(name);
  if (m == nullptr) throw std::logic_error(fmt::format("dev-sandbox aio renderer: the result lacks {}", name));
  return m->value;
}

}  // namespace

DevSandboxAioRequest parse_dev_sandbox_aio(const std::vector<std::string>& args) {
  CLI::App app{"UCM dev-sandbox aio: KV block dump/load bandwidth on a POSIX store (xferbench dialect)",
               "dev-sandbox aio"};
  std::string dir, workspace, size, io_size, blocks, io_number, iterations, epochs, io_type, device,
      threads = kDefaultThreads, iodirect = "true", sync = "none";
  bool verify = false, keep = false;
  app.add_option("--dir", dir, "the store's directory (must exist)");
  app.add_option("-s", size, "block size (default 512M)");
  app.add_option("-n", blocks, "blocks (default 8)");
  app.add_option("-i", iterations, "passes: each dumps, then loads, every block once more (default 1)");
  // UCM's aio module's own spellings; its defaults apply when --workspace names the store.
  app.add_option("--workspace", workspace, "UCM's name of --dir; then the defaults are UCM's: 1M x 512, 32 epochs");
  app.add_option("--io-size", io_size, "UCM's name of -s (default with --workspace: 1048576)");
  app.add_option("--io-number", io_number, "UCM's name of -n (default with --workspace: 512)");
  app.add_option("--epoch-number", epochs, "UCM's name of -i (default with --workspace: 32)");
  // Both are page-aligned pageable host memory in the kv job: accepted, checked, no other effect.
  app.add_option("--io-type", io_type, "mmap (default) or alloc: how the host buffers are allocated");
  app.add_option("--device-id", device, "load into this device's memory (default: host memory)");
  app.add_option("-w", threads, "threads sharing the blocks (default 4)");
  app.add_option("--iodirect", iodirect, "true (O_DIRECT, default) or false (page cache)");
  app.add_option("--sync", sync, "dump: none (default), block or end");
  app.add_flag("--verify", verify, "xferbench extension: check every loaded byte");
  app.add_flag("--keep", keep, "xferbench extension: leave the blocks in --dir");
  parse_args(app, args);

  if (!dir.empty() && !workspace.empty()) throw UsageError("--dir / --workspace: give one, they name the same store");
  const bool ucm = !workspace.empty();
  const auto pick = [&](const std::string& seed_form, const char* seed_flag, const std::string& ucm_form,
                        const char* ucm_flag, const char* seed_default, const char* ucm_default) {
    if (!seed_form.empty() && !ucm_form.empty()) {
      throw UsageError(fmt::format("{} / {}: give one, they are the same option", seed_flag, ucm_flag));
    }
    if (!seed_form.empty()) return std::pair<std::string, const char*>{seed_form, seed_flag};
    if (!ucm_form.empty()) return std::pair<std::string, const char*>{ucm_form, ucm_flag};
    return std::pair<std::string, const char*>{ucm ? ucm_default : seed_default, ucm ? ucm_flag : seed_flag};
  };
  const auto [size_text, size_flag] = pick(size, "-s", io_size, "--io-size", "512M", "1048576");
  const auto [blocks_text, blocks_flag] = pick(blocks, "-n", io_number, "--io-number", "8", "512");
  const auto [passes_text, passes_flag] = pick(iterations, "-i", epochs, "--epoch-number", "1", "32");
  if (!io_type.empty() && io_type != "mmap" && io_type != "alloc") {
    throw UsageError(fmt::format("--io-type {}: expected mmap or alloc", io_type));
  }
  if (dir.empty() && workspace.empty()) throw UsageError("--dir: required, the directory of the POSIX store");
  DevSandboxAioRequest r;
  KvPlan& p = r.dump;
  p.op = KvOp::dump;
  p.store = ucm ? workspace : dir;
  p.block_bytes = parse_size(size_text, size_flag);
  p.blocks = parse_count(blocks_text, blocks_flag, 1, std::uint64_t{1} << 32);
  p.passes = parse_count(passes_text, passes_flag, 1, 1'000'000);
  p.threads = static_cast<unsigned>(parse_count(threads, "-w", 1, 128));
  p.buffered = !parse_bool(iodirect, "--iodirect");
  const auto s = kv_sync_from(sync);
  if (!s) throw UsageError(fmt::format("--sync {}: expected none, block or end", sync));
  p.sync = *s;
  r.load = p;
  r.load.op = KvOp::load;
  r.load.sync = KvSync::none;
  r.load.target = KvTarget::host;
  if (!device.empty()) {
    r.load.target = KvTarget::device;
    r.load.device = static_cast<int>(parse_count(device, "--device-id", 0, 1023));
  }
  r.load.verify = verify;
  r.keep = keep;
  r.words = native_flag_words().with(
      {{"kv.store", ucm ? "--workspace" : "--dir"}, {"kv.blocks", blocks_flag}, {"kv.block", size_flag},
       {"kv.threads", "-w"}, {"kv.passes", passes_flag}});
  return r;
}

std::string render_dev_sandbox_aio(const CaseResult& result) {
  const KvConfig c = result.config.get<KvConfig>();
  const bool dump = c.dump();
  const bool direct = c.direct;
  const auto threads = c.threads;
  const std::string io = direct ? "O_DIRECT" : "page cache";
  std::string text;
  if (dump) {
    text = fmt::format("[[ aio_dump_to_posix_store ]] dump kv blocks from host to posix store with pwrite and {} "
                       "using {} thread{}, sync {}\n",
                       io, threads, threads == 1 ? "" : "s", c.sync.value_or(""));
  } else {
    text = fmt::format("[[ aio_load_from_posix_store ]] load kv blocks from posix store to {} with pread and {} "
                       "using {} thread{}\n",
                       c.to.value_or("host"), io, threads, threads == 1 ? "" : "s");
  }
  text += fmt::format(kAioRowFormat, "From", "To", "Method", "Size(KB)", "Count", "Block(us)-(Min/Max/Avg/P50/P90)",
                      "BW(GB/s)");
  text += '\n';
  const std::string stats =
      fmt::format("{:.0f} / {:.0f} / {:.0f} / {:.0f} / {:.0f}", metric(result, "latency_min"), metric(result, "latency_max"),
                  metric(result, "latency_avg"), metric(result, "latency_p50"), metric(result, "latency_p90"));
  const std::string method = fmt::format("{}-W{}", direct ? "DIO" : "BUF", threads);
  // A load into device memory (--device-id) names the device as dev-sandbox's copy table does.
  const std::string loaded_to =
      c.device ? fmt::format("{}::device::{}", c.device->backend, c.device->device) : "host::all";
  text += fmt::format(kAioRowFormat, dump ? "host::all" : "posix::store", dump ? "posix::store" : loaded_to, method,
                      dev_sandbox_size_kb(c.block_bytes),
                      fmt::format("{:.0f}", metric(result, "blocks")), stats,
                      fmt::format("{:.3f}", metric(result, "bandwidth")));
  text += '\n';
  return text;
}

}  // namespace xb
