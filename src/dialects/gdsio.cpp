#include "dialects/gdsio.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <stdexcept>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "storage/io_engine.hpp"

namespace xb {
namespace {

// gdsio's numbering of -x and -I, in its order (-x 0 is GPUD, -I 0 is read).
constexpr IoTransfer kXfer[] = {IoTransfer::gpu_direct, IoTransfer::cpu, IoTransfer::cpu_gpu};
constexpr IoPattern kIoType[] = {IoPattern::read, IoPattern::write, IoPattern::randread, IoPattern::randwrite};

const std::string kXferRule = "expected 0 (GPUD), 1 (CPUONLY) or 2 (CPU_GPU)";
const std::string kIoTypeRule = "expected 0 (read), 1 (write), 2 (randread) or 3 (randwrite)";

const Metric& metric_of(const CaseResult& r, std::string_view name) {
  const Metric* m = r.find_metric(name);
  if (m == nullptr) throw std::logic_error(fmt::format("gdsio renderer: the result lacks the metric {}", name));
  return *m;
}

}  // namespace

IoFlagNames gdsio_flag_names() {
  IoFlagNames f;
  f.directory = "-D";
  f.file = "-f";
  f.threads = "-w";
  f.size = "-s";
  f.io_size = "-i";
  f.seconds = "-T";
  f.transfer = "-x";
  f.device = "-d";
  // Not gdsio flags: the dialect fixes them (best engine, depth 1), so a message never names them.
  f.engine = "engine";
  f.queue_depth = "queue depth";
  return f;
}

GdsioRequest parse_gdsio(const std::vector<std::string>& args) {
  CLI::App app{"NVIDIA gdsio: storage throughput and latency by transfer type (xferbench dialect)", "gdsio"};
  std::string directory, file, device = "0", threads = "1", size, io_size, xfer, io_type, seconds;
  bool verify = false;
  app.add_option("-D", directory, "directory: one file per thread");
  app.add_option("-f", file, "one file; thread t works on its t-th region of -s bytes");
  app.add_option("-d", device, "GPU index (default 0)");
  app.add_option("-w", threads, "threads (default 1)");
  app.add_option("-s", size, "bytes per thread, e.g. 1g");
  app.add_option("-i", io_size, "bytes per IO, e.g. 1m");
  app.add_option("-x", xfer, "transfer type: 0 GPUD, 1 CPUONLY, 2 CPU_GPU");
  app.add_option("-I", io_type, "IO type: 0 read, 1 write, 2 randread, 3 randwrite");
  app.add_flag("-V", verify, "verify: a write run is read back and checked; a read run checks what it reads");
  app.add_option("-T", seconds, "run for this many seconds instead of one pass");
  parse_args(app, args);

  if (xfer.empty()) throw UsageError("-x: required, " + kXferRule);
  if (io_type.empty()) throw UsageError("-I: required, " + kIoTypeRule);
  if (size.empty()) throw UsageError("-s: required, the bytes per thread (e.g. -s 1g)");
  if (io_size.empty()) throw UsageError("-i: required, the bytes per IO (e.g. -i 1m)");
  std::uint64_t x = 0, t = 0;
  try {
    x = parse_count(xfer, "-x", 0, std::size(kXfer) - 1);
  } catch (const UsageError&) {
    throw UsageError(fmt::format("-x {}: {}", xfer, kXferRule));
  }
  try {
    t = parse_count(io_type, "-I", 0, std::size(kIoType) - 1);
  } catch (const UsageError&) {
    throw UsageError(fmt::format("-I {}: {}", io_type, kIoTypeRule));
  }

  GdsioRequest r;
  IoPlan& p = r.plan;
  p.directory = directory;
  p.file = file;
  p.transfer = kXfer[x];
  p.pattern = kIoType[t];
  p.device = static_cast<int>(parse_count(device, "-d", 0, 1023));
  // -w 0 is the job's rule to word, so parse wide here.
  p.threads = static_cast<unsigned>(parse_count(threads, "-w", 0, 1u << 20));
  p.file_bytes = parse_size(size, "-s");
  p.io_bytes = parse_size(io_size, "-i");
  if (!seconds.empty()) p.seconds = parse_count(seconds, "-T", 1, 1u << 30);
  p.queue_depth = 1;
  if (verify && is_write(p.pattern)) {
    if (p.seconds != 0) {
      throw UsageError("-V with -T: -V reads back what a one-pass write left; a timed write may stop part way");
    }
    r.verify_after_write = true;
  } else {
    p.verify = verify;
  }
  return r;
}

std::string best_gdsio_engine() {
  // Ask each engine for a one-deep instance without files or buffers: the kernel interface is all
  // that is probed, and an Unavailable means the next one down.
  for (std::string_view name : {"io_uring", "libaio", "psync"}) {
    const IoEngineInfo* info = find_io_engine(name);
    if (info == nullptr) continue;
    try {
      info->make(IoEngineSetup{{}, {}, IoEngineOptions{1, false, false}});
      return std::string(name);
    } catch (const Unavailable&) {
    }
  }
  return "psync";  // pread/pwrite: every kernel has them
}

IoPlan gdsio_readback_plan(const IoPlan& write_plan) {
  IoPlan r = write_plan;
  r.pattern = write_plan.pattern == IoPattern::randwrite ? IoPattern::randread : IoPattern::read;
  r.verify = true;
  return r;
}

std::string_view gdsio_io_type(IoPattern pattern) {
  switch (pattern) {
    case IoPattern::read: return "READ";
    case IoPattern::write: return "WRITE";
    case IoPattern::randread: return "RANDREAD";
    case IoPattern::randwrite: return "RANDWRITE";
  }
  return "?";
}

std::string_view gdsio_xfer_type(IoTransfer transfer) {
  switch (transfer) {
    case IoTransfer::gpu_direct: return "GPUD";
    case IoTransfer::cpu: return "CPUONLY";
    case IoTransfer::cpu_gpu: return "CPU_GPU";
  }
  return "?";
}

std::string render_gdsio(const CaseResult& result) {
  const auto& c = result.config;
  const auto pattern = io_pattern_from(c.at("rw").get<std::string>());
  const auto transfer = io_transfer_from(c.value("transfer", std::string("cpu")));
  if (!pattern || !transfer) throw std::logic_error("gdsio renderer: the result has an unknown rw or transfer");
  const auto threads = c.at("threads").get<std::uint64_t>();
  const auto requested_kib = threads * c.at("size_per_thread_requested").get<std::uint64_t>() / 1024;
  const auto moved_kib = static_cast<std::uint64_t>(metric_of(result, "bytes").value) / 1024;
  const auto io_kib = c.at("io_size").get<std::uint64_t>() / 1024;
  return fmt::format(
      "IoType: {} XferType: {} Threads: {} DataSetSize: {}/{}(KiB) IOSize: {}(KiB) Throughput: {:.6f} GiB/sec, "
      "Avg_Latency: {:.6f} usecs ops: {} total_time {:.6f} secs\n",
      gdsio_io_type(*pattern), gdsio_xfer_type(*transfer), threads, moved_kib, requested_kib, io_kib,
      metric_of(result, "throughput").value, metric_of(result, "latency_avg").value,
      static_cast<std::uint64_t>(metric_of(result, "ops").value), metric_of(result, "wall_time").value);
}

}  // namespace xb
