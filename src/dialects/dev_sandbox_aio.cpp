#include "dialects/dev_sandbox_aio.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <stdexcept>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

// The copy summary's widths, with one timing column (per block) instead of Submit and Copy.
constexpr const char* kRowFormat = "  {:<18}{:<18}{:<10}{:<10}{:<8}{:<40}{}";

// The seed does not say how many writers UCM's store uses; four matches the copy path's four streams.
constexpr const char* kDefaultThreads = "4";

std::string size_kb(std::uint64_t bytes) {
  return bytes % 1024 == 0 ? fmt::format("{}", bytes / 1024) : fmt::format("{:.3f}", static_cast<double>(bytes) / 1024.0);
}

double metric(const CaseResult& r, std::string_view name) {
  const Metric* m = r.find_metric(name);
  if (m == nullptr) throw std::logic_error(fmt::format("dev-sandbox aio renderer: the result lacks {}", name));
  return m->value;
}

}  // namespace

DevSandboxAioRequest parse_dev_sandbox_aio(const std::vector<std::string>& args) {
  CLI::App app{"UCM dev-sandbox aio: KV block dump/load bandwidth on a POSIX store (xferbench dialect)",
               "dev-sandbox aio"};
  std::string dir, size = "512M", blocks = "8", iterations = "1", threads = kDefaultThreads, iodirect = "true",
              sync = "none";
  bool verify = false, keep = false;
  app.add_option("--dir", dir, "the store's directory (must exist)");
  app.add_option("-s", size, "block size (default 512M)");
  app.add_option("-n", blocks, "blocks (default 8)");
  app.add_option("-i", iterations, "passes: each dumps, then loads, every block once more (default 1)");
  app.add_option("-w", threads, "threads sharing the blocks (default 4)");
  app.add_option("--iodirect", iodirect, "true (O_DIRECT, default) or false (page cache)");
  app.add_option("--sync", sync, "dump: none (default), block or end");
  app.add_flag("--verify", verify, "xferbench extension: check every loaded byte");
  app.add_flag("--keep", keep, "xferbench extension: leave the blocks in --dir");
  parse_args(app, args);

  if (dir.empty()) throw UsageError("--dir: required, the directory of the POSIX store");
  DevSandboxAioRequest r;
  KvPlan& p = r.dump;
  p.op = KvOp::dump;
  p.store = dir;
  p.block_bytes = parse_size(size, "-s");
  p.blocks = parse_count(blocks, "-n", 1, std::uint64_t{1} << 32);
  p.passes = parse_count(iterations, "-i", 1, 1'000'000);
  p.threads = static_cast<unsigned>(parse_count(threads, "-w", 1, 128));
  p.buffered = !parse_bool(iodirect, "--iodirect");
  const auto s = kv_sync_from(sync);
  if (!s) throw UsageError(fmt::format("--sync {}: expected none, block or end", sync));
  p.sync = *s;
  r.load = p;
  r.load.op = KvOp::load;
  r.load.sync = KvSync::none;
  r.load.target = KvTarget::host;
  r.load.verify = verify;
  r.keep = keep;
  return r;
}

std::string render_dev_sandbox_aio(const CaseResult& result) {
  const auto& c = result.config;
  const bool dump = c.at("op").get<std::string>() == "dump";
  const bool direct = c.at("direct").get<bool>();
  const auto threads = c.at("threads").get<unsigned>();
  const std::string io = direct ? "O_DIRECT" : "page cache";
  std::string text;
  if (dump) {
    text = fmt::format("[[ aio_dump_to_posix_store ]] dump kv blocks from host to posix store with pwrite and {} "
                       "using {} thread{}, sync {}\n",
                       io, threads, threads == 1 ? "" : "s", c.at("sync").get<std::string>());
  } else {
    text = fmt::format("[[ aio_load_from_posix_store ]] load kv blocks from posix store to host with pread and {} "
                       "using {} thread{}\n",
                       io, threads, threads == 1 ? "" : "s");
  }
  text += fmt::format(kRowFormat, "From", "To", "Method", "Size(KB)", "Count", "Block(us)-(Min/Max/Avg/P50/P90)",
                      "BW(GB/s)");
  text += '\n';
  const std::string stats =
      fmt::format("{:.0f} / {:.0f} / {:.0f} / {:.0f} / {:.0f}", metric(result, "latency_min"), metric(result, "latency_max"),
                  metric(result, "latency_avg"), metric(result, "latency_p50"), metric(result, "latency_p90"));
  const std::string method = fmt::format("{}-W{}", direct ? "DIO" : "BUF", threads);
  text += fmt::format(kRowFormat, dump ? "host::all" : "posix::store", dump ? "posix::store" : "host::all", method,
                      size_kb(c.at("block_bytes").get<std::uint64_t>()),
                      fmt::format("{:.0f}", metric(result, "blocks")), stats,
                      fmt::format("{:.3f}", metric(result, "bandwidth")));
  text += '\n';
  return text;
}

}  // namespace xb
