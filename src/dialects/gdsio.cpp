#include "dialects/gdsio.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sys/stat.h>

#include <stdexcept>

#include "cli/args.hpp"
#include "cli/native_flag_words.hpp"
#include "core/error.hpp"
#include "core/size.hpp"
#include "jobs/io/io_config.hpp"
#include "storage/file_set.hpp"

namespace xb {
namespace {

// gdsio's numbering of -x and -I, in its order (-x 0 is GPUD, -I 0 is read).
constexpr IoTransfer kXfer[] = {IoTransfer::gpu_direct,     IoTransfer::cpu,           IoTransfer::cpu_gpu,
                                IoTransfer::cpu_async_gpu,  IoTransfer::cpu_cached_gpu, IoTransfer::gpu_direct_async,
                                IoTransfer::gpu_batch,      IoTransfer::gpu_batch_stream};
constexpr IoPattern kIoType[] = {IoPattern::read, IoPattern::write, IoPattern::randread, IoPattern::randwrite};
constexpr const char* kMemoryTypes[] = {"cudaMalloc", "cuMem", "cudaMallocHost", "malloc", "mmap"};

const std::string kXferRule =
    "expected 0 (GPUD), 1 (CPUONLY), 2 (CPU_GPU), 3 (CPU_ASYNC_GPU), 4 (CPU_CACHED_GPU), 5 (GPU_ASYNC), 6 (GPU_BATCH) "
    "or 7 (GPU_BATCH_STREAM)";
const std::string kIoTypeRule = "expected 0 (read), 1 (write), 2 (randread) or 3 (randwrite)";

const Metric& metric_of(const CaseResult& r, std::string_view name) {
  const Metric* m = r.find_metric(name);
  if (m == nullptr) throw std::logic_error(fmt::format("gdsio renderer: the result lacks the metric {}", name));
  return *m;
}

std::string gdsio_transfer_value(IoTransfer t) {
  for (std::size_t i = 0; i < std::size(kXfer); ++i) {
    if (kXfer[i] == t) return fmt::format("{} ({})", i, gdsio_xfer_type(t));
  }
  return std::string(to_string(t));
}

// One of gdsio's numbered choices, worded with its rule when out of range.
std::uint64_t choice(const std::string& text, const char* flag, std::uint64_t count, const std::string& rule) {
  try {
    return parse_count(text, flag, 0, count - 1);
  } catch (const UsageError&) {
    throw UsageError(fmt::format("{} {}: {}", flag, text, rule));
  }
}

// gdsio's sizes take K, M, G (either case); an offset may be 0.
std::uint64_t offset_of(const std::string& text) { return text == "0" ? 0 : parse_size(text, "-o"); }

// -s left out on a read: the data already there (the file, or with -D the smallest of the files), less -o.
std::uint64_t existing_size(const IoPlan& p) {
  FileSetSpec files;  // named as the io job names them
  files.directory = p.directory;
  files.file = p.file;
  files.threads = p.threads;
  files.name_prefix = p.name_prefix;
  std::uint64_t smallest = UINT64_MAX;
  for (const auto& path : file_set_paths(files)) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      throw UsageError(fmt::format("-s: required unless the files to read exist ({} does not)", path.string()));
    }
    smallest = std::min<std::uint64_t>(smallest, static_cast<std::uint64_t>(st.st_size));
  }
  if (smallest <= p.offset) throw UsageError(fmt::format("-s: required: the files hold nothing past -o {}", p.offset));
  return smallest - p.offset;
}

}  // namespace

FlagWords gdsio_flag_words() {
  FlagWords w = native_flag_words().with({
      {"files.directory", "-D"}, {"files.file", "-f"}, {"io.threads", "-w"}, {"io.size", "-s"}, {"io.io_size", "-i"},
      {"io.seconds", "-T"}, {"io.transfer", "-x"}, {"io.device", "-d"}, {"io.offset", "-o"},
      {"io.read_percent", "-M"}, {"io.alignment", "-a"}, {"io.numa", "-n"}, {"io.verify", "-V"},
      {"io.buffered", "-O 1"},
      // Not gdsio flags: the dialect fixes them (best engine, depth 1), so a message never names them.
      {"io.engine", "engine"}, {"io.queue_depth", "queue depth"},
  });
  // -x's values as gdsio numbers them: "6 (GPU_BATCH)".
  w.values = [](std::string_view field, std::string_view value) -> std::optional<std::string> {
    if (field != "io.transfer") return std::nullopt;
    for (const IoTransfer t : kIoTransfers) {
      if (to_string(t) == value) return gdsio_transfer_value(t);
    }
    return std::nullopt;
  };
  return w;
}

GdsioRequest parse_gdsio(const std::vector<std::string>& args) {
  CLI::App app{"NVIDIA gdsio: storage throughput and latency by transfer type (xferbench dialect)", "gdsio"};
  std::string directory, file, device = "0", numa, memory, threads = "1", size, offset = "0", io_size = "4K", xfer = "0",
                                  batch, io_type = "0", seconds, seed, alignment, mixed, rdma_url, o_direct = "0";
  bool verify = false, nvlinks = false, skip_register = false, unaligned = false, random_fill = false, refill = false,
       per_job = false;
  app.add_option("-f", file, "file name (the threads share its data set of -s bytes)");
  app.add_option("-D", directory, "directory: one file per thread, gdsio.0 ... gdsio.N-1, each of -s bytes");
  app.add_option("-d", device, "GPU index (default 0)");
  app.add_option("-n", numa, "NUMA node: the threads and their buffers bound to it");
  app.add_option("-m", memory, "memory type: 0 cudaMalloc (default), 1 cuMem, 2 cudaMallocHost, 3 malloc, 4 mmap");
  app.add_option("-w", threads, "threads of the job (default 1)");
  app.add_option("-s", size, "file size (K|M|G); a read defaults to the files' size");
  app.add_option("-o", offset, "start offset (K|M|G; default 0)");
  app.add_option("-i", io_size, "IO size (K|M|G; default 4K), or MIN:MAX:STEP: sizes drawn in that range");
  app.add_flag("-p", nvlinks, "enable NVLinks");
  app.add_flag("-b", skip_register, "skip cuFileBufRegister of the GPU buffers");
  app.add_flag("-V", verify, "verify IO: a write run is read back and checked; a read run checks what it reads");
  app.add_option("-x", xfer, "transfer type (default 0): " + kXferRule.substr(std::string("expected ").size()));
  app.add_option("-B", batch, "batch size of GPU_BATCH and GPU_BATCH_STREAM");
  app.add_option("-I", io_type, "IO type (default 0): 0 read, 1 write, 2 randread, 3 randwrite");
  app.add_option("-T", seconds, "duration in seconds (0 or left out: until the data set is done)");
  app.add_option("-k", seed, "random seed of the random offsets (the same seed, the same offsets)");
  app.add_flag("-U", unaligned, "unaligned random offsets (buffered IO: O_DIRECT forbids them)");
  app.add_flag("-R", random_fill, "fill the IO buffers with random data");
  app.add_flag("-F", refill, "refill the IO buffers with random data on every write");
  app.add_option("-a", alignment, "alignment of the random offsets (each drawn on its own)");
  app.add_option("-M", mixed, "mixed run: this percentage of the IOs read, the others write");
  app.add_option("-P", rdma_url, "RDMA URL of a remote target");
  app.add_flag("-J", per_job, "per-job statistics");
  app.add_option("-O", o_direct, "1: open the files without O_DIRECT (default 0: O_DIRECT)");
  parse_args(app, args);

  GdsioRequest r;
  IoPlan& p = r.plan;
  p.directory = directory;
  p.file = file;
  p.name_prefix = "gdsio";
  p.shared_size = true;
  p.transfer = kXfer[choice(xfer, "-x", std::size(kXfer), kXferRule)];
  p.pattern = kIoType[choice(io_type, "-I", std::size(kIoType), kIoTypeRule)];
  p.device = static_cast<int>(parse_count(device, "-d", 0, 1023));
  // -w 0 is the job's rule to word, so parse wide here.
  p.threads = static_cast<unsigned>(parse_count(threads, "-w", 0, 1u << 20));
  p.offset = offset_of(offset);
  if (const auto colon = io_size.find(':'); colon != std::string::npos) {
    const auto second = io_size.find(':', colon + 1);
    if (second == std::string::npos) throw UsageError(fmt::format("-i {}: expected SIZE or MIN:MAX:STEP", io_size));
    p.io_min_bytes = parse_size(io_size.substr(0, colon), "-i");
    p.io_bytes = parse_size(io_size.substr(colon + 1, second - colon - 1), "-i");
    p.io_step_bytes = parse_size(io_size.substr(second + 1), "-i");
  } else {
    p.io_bytes = parse_size(io_size, "-i");
  }
  if (!seconds.empty()) p.seconds = parse_count(seconds, "-T", 0, 1u << 30);
  if (!seed.empty()) p.order_seed = parse_count(seed, "-k", 0, UINT64_MAX);
  if (!numa.empty()) p.numa_node = static_cast<int>(parse_count(numa, "-n", 0, 1023));
  if (!mixed.empty()) p.read_percent = static_cast<unsigned>(parse_count(mixed, "-M", 0, 100));
  p.buffered = choice(o_direct, "-O", 2, "expected 0 (O_DIRECT, the default) or 1 (no O_DIRECT)") == 1;
  p.register_buffers = !skip_register;
  if (is_random(p.pattern)) {
    if (!alignment.empty()) p.random_alignment = parse_size(alignment, "-a");
    if (unaligned) {
      p.random_alignment = 1;
      if (!p.buffered) {
        p.buffered = true;
        r.notes.push_back("gdsio: -U: the files were opened without O_DIRECT (buffered), which forbids unaligned offsets");
      }
    }
  }
  p.queue_depth = 1;
  // -R and -F: every write here carries a fresh pseudo-random pattern of its offset (what -F asks
  // for, and the data -V checks), so both hold whether given or not (docs/gdsio.md).
  (void)random_fill;
  (void)refill;

  r.memory_type = memory.empty() ? 0 : static_cast<int>(choice(memory, "-m", std::size(kMemoryTypes),
                                                               "expected 0 (cudaMalloc), 1 (cuMem), 2 (cudaMallocHost), "
                                                               "3 (malloc) or 4 (mmap)"));
  if (!batch.empty()) r.batch_size = static_cast<unsigned>(parse_count(batch, "-B", 1, 1024));
  r.nvlinks = nvlinks;
  r.per_job_stats = per_job;
  if (!rdma_url.empty()) {
    r.missing = fmt::format("-P {}: a remote RDMA target needs cuFile with GPUDirect RDMA to it, which xferbench does "
                            "not drive",
                            rdma_url);
  } else if (is_direct(p.transfer) && r.memory_type != 0) {
    r.missing = fmt::format("-m {} ({}): GPUD from that memory through cuFile is not driven by xferbench; it moves "
                            "cudaMalloc memory (-m 0)",
                            r.memory_type, kMemoryTypes[r.memory_type]);
  }
  if (!is_direct(p.transfer) && r.memory_type != 0) {
    r.notes.push_back(fmt::format("gdsio: -m {}: used only by the GPUD types (-x 0, 5, 6, 7); ignored", r.memory_type));
  }
  if (r.batch_size != 0 && p.transfer != IoTransfer::gpu_batch && p.transfer != IoTransfer::gpu_batch_stream) {
    r.notes.push_back("gdsio: -B: used only by GPU_BATCH and GPU_BATCH_STREAM (-x 6, 7); ignored");
  }
  if (nvlinks) r.notes.push_back("gdsio: -p: no NVLink path is used here; the data moved as without -p");

  if (size.empty()) {
    if (is_write(p.pattern) || p.read_percent) throw UsageError("-s: required to write: the file size (e.g. -s 1G)");
    if (p.directory.empty() == p.file.empty()) {
      throw UsageError("-D / -f: give exactly one: a directory (-D DIR, one file per thread) or a file (-f FILE)");
    }
    p.file_bytes = existing_size(p);
  } else {
    p.file_bytes = parse_size(size, "-s");
  }
  if (verify && is_write(p.pattern) && !p.read_percent) {
    if (p.seconds != 0) {
      throw UsageError("-V with -T: -V reads back what a one-pass write left; a timed write may stop part way");
    }
    r.verify_after_write = true;
  } else {
    p.verify = verify;
  }
  return r;
}

IoPlan gdsio_readback_plan(const IoPlan& write_plan) {
  IoPlan r = write_plan;
  r.pattern = write_plan.pattern == IoPattern::randwrite ? IoPattern::randread : IoPattern::read;
  r.verify = true;
  r.verify_readback = true;
  return r;
}

std::string_view gdsio_io_type(IoPattern pattern, bool mixed) {
  if (mixed) return is_random(pattern) ? "RANDRW" : "RW";
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
    case IoTransfer::cpu_async_gpu: return "CPU_ASYNC_GPU";
    case IoTransfer::cpu_cached_gpu: return "CPU_CACHED_GPU";
    case IoTransfer::gpu_direct_async: return "GPU_ASYNC";
    case IoTransfer::gpu_batch: return "GPU_BATCH";
    case IoTransfer::gpu_batch_stream: return "GPU_BATCH_STREAM";
  }
  return "?";
}

std::string render_gdsio(const CaseResult& result) {
  const IoConfig c = result.config.get<IoConfig>();
  const auto pattern = io_pattern_from(c.rw);
  const auto transfer = io_transfer_from(c.transfer);
  if (!pattern || !transfer) throw std::logic_error("gdsio renderer: the result has an unknown rw or transfer");
  const bool mixed = c.read_percent.has_value();
  const auto threads = c.threads;
  const auto requested_kib = c.data_set_requested / 1024;
  const auto moved = static_cast<std::uint64_t>(metric_of(result, "bytes").value);
  const auto ops = static_cast<std::uint64_t>(metric_of(result, "ops").value);
  // Sizes drawn from a range: the mean size moved (gdsio's line has one number).
  const auto io_kib = c.sizes_drawn() && ops != 0 ? moved / ops / 1024 : c.io_size / 1024;
  return fmt::format(
      "IoType: {} XferType: {} Threads: {} DataSetSize: {}/{}(KiB) IOSize: {}(KiB) Throughput: {:.6f} GiB/sec, "
      "Avg_Latency: {:.6f} usecs ops: {} total_time {:.6f} secs\n",
      gdsio_io_type(*pattern, mixed), gdsio_xfer_type(*transfer), threads, moved / 1024, requested_kib, io_kib,
      metric_of(result, "throughput").value, metric_of(result, "latency_avg").value, ops,
      metric_of(result, "wall_time").value);
}

}  // namespace xb
