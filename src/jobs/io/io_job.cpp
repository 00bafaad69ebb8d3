#include "jobs/io/io_job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <latch>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "core/clock.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/numa_binding.hpp"
#include "core/plan_error.hpp"
#include "core/size.hpp"
#include "core/stop.hpp"
#include "jobs/io/io_config.hpp"
#include "jobs/io/io_data_path.hpp"
#include "jobs/io/io_layout.hpp"
#include "jobs/io/io_metrics.hpp"
#include "jobs/worker_tally.hpp"
#include "runtime/thread_team.hpp"
#include "storage/file_set.hpp"
#include "storage/io_engine.hpp"

namespace xb {

namespace {
constexpr NamedValue<IoPattern> kIoPatternNames[] = {
    {IoPattern::read, "read"}, {IoPattern::write, "write"}, {IoPattern::randread, "randread"},
    {IoPattern::randwrite, "randwrite"}};
constexpr NamedValue<IoTransfer> kIoTransferNames[] = {
    {IoTransfer::cpu, "cpu"},
    {IoTransfer::cpu_gpu, "cpu-gpu"},
    {IoTransfer::cpu_async_gpu, "cpu-async-gpu"},
    {IoTransfer::cpu_cached_gpu, "cpu-cached-gpu"},
    {IoTransfer::gpu_direct, "gpu-direct"},
    {IoTransfer::gpu_direct_async, "gpu-direct-async"},
    {IoTransfer::gpu_batch, "gpu-batch"},
    {IoTransfer::gpu_batch_stream, "gpu-batch-stream"}};
}  // namespace

std::string_view to_string(IoPattern p) { return name_of(kIoPatternNames, p); }
std::optional<IoPattern> io_pattern_from(std::string_view name) { return value_named(kIoPatternNames, name); }
std::string_view to_string(IoTransfer t) { return name_of(kIoTransferNames, t); }
std::optional<IoTransfer> io_transfer_from(std::string_view name) { return value_named(kIoTransferNames, name); }

double io_throughput_gib_per_s(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / 1073741824.0 : 0.0;
}

namespace {

// Limits past which no machine has a use for the value; they keep every product inside 64 bits.
constexpr unsigned kMaxThreads = 1024;
constexpr unsigned kMaxQueueDepth = 4096;
constexpr std::uint64_t kMaxIoBytes = std::uint64_t{1} << 30;  // io_uring's length is 32 bits
constexpr std::uint64_t kMaxSeconds = 7 * 24 * 3600;
constexpr int kMaxDevice = 1023;
// Drawn IO sizes are kept as a list of where each piece starts: 8 bytes a piece, 256 MiB at most.
constexpr std::uint64_t kMaxPieces = std::uint64_t{1} << 25;

// Whether -s is the data set the threads share (gdsio's -f) rather than each thread's own.
bool one_shared_data_set(const IoPlan& plan) { return plan.shared_size && !plan.file.empty(); }
// The bytes each thread is asked for: -s itself, or its share of a data set the threads share.
std::uint64_t share_per_thread(const IoPlan& plan) {
  return one_shared_data_set(plan) ? plan.file_bytes / plan.threads : plan.file_bytes;
}
// Each thread moves whole IOs: its share rounded down to a multiple of the IO size.
std::uint64_t whole_bytes_per_thread(const IoPlan& plan) { return share_per_thread(plan) / plan.io_bytes * plan.io_bytes; }
// The bytes the plan asks for in all (gdsio's DataSetSize denominator).
std::uint64_t data_set_requested(const IoPlan& plan) {
  return one_shared_data_set(plan) ? plan.file_bytes : plan.file_bytes * plan.threads;
}
// CPU_CACHED_GPU goes through the page cache whatever the plan's buffered says.
bool buffered_io(const IoPlan& plan) { return plan.buffered || plan.transfer == IoTransfer::cpu_cached_gpu; }

unsigned effective_queue_depth(const IoPlan& plan, const IoEngineInfo& engine) {
  return engine.max_queue_depth != 0 ? std::min(plan.queue_depth, engine.max_queue_depth) : plan.queue_depth;
}

FileSetSpec file_spec(const IoPlan& plan) {
  return {.directory = plan.directory, .file = plan.file, .threads = plan.threads,
          .bytes_per_thread = whole_bytes_per_thread(plan),
          // A mixed run writes too: its files are opened for writing and lose their completion records.
          .write = is_write(plan.pattern) || plan.read_percent.has_value(), .direct = !buffered_io(plan),
          .keep = plan.keep, .verify = plan.verify && !plan.verify_readback, .seed = plan.seed, .offset = plan.offset,
          .name_prefix = plan.name_prefix};
}

// An existing path on the file system the files live on, to ask for its O_DIRECT alignment.
std::filesystem::path alignment_probe(const IoPlan& plan) {
  if (!plan.directory.empty()) return plan.directory;
  std::error_code ec;
  if (std::filesystem::exists(plan.file, ec)) return plan.file;
  return std::filesystem::absolute(plan.file).parent_path();
}

// Files differ from one another: file i holds the pattern of seed + i.
std::uint64_t file_seed(const IoPlan& plan, std::uint32_t file_index) { return plan.seed + file_index; }
// The random order of file i's blocks: from -k where given (the same offsets again), else its pattern seed.
std::uint64_t order_seed(const IoPlan& plan, std::uint32_t file_index) {
  return plan.order_seed ? *plan.order_seed * 0x9e3779b97f4a7c15ull + file_index : file_seed(plan, file_index);
}

// One thread's state. Members are destroyed in reverse order: the engine (which waits for or
// cancels whatever is in flight) goes before the data path whose buffers it points into.
struct Worker : WorkerTally {
  std::unique_ptr<IoDataPath> data;  // the buffers and what the transfer type does around each IO
  std::vector<IoUnit> units;
  std::unique_ptr<IoEngine> engine;
  std::uint32_t file_index = 0;
  std::uint64_t base = 0;     // where the thread's region starts in its file
  unsigned depth = 1;         // IOs in flight at most (CPU_GPU has more units than that)
  bool covered = false;  // wrote every byte of its region at least once with the pattern
};

struct Shared {
  std::latch& start;
  std::atomic<bool>& stop;
  ProgressLine* progress;      // the live rate (may be null)
  std::stop_token interrupt;  // the run is ending on a signal: every worker stops
};

void run_worker(Worker& w, const IoPlan& plan, std::uint64_t region, Shared shared) {
  IoLayout layout(plan, region, order_seed(plan, w.file_index));
  const std::uint64_t blocks = layout.ios_per_pass();
  // Idle units in the order they were reaped: CPU_GPU reuses the unit whose device copy is oldest.
  std::deque<IoUnit*> idle;
  std::vector<IoUnit*> reaped(w.units.size());
  for (auto& u : w.units) idle.push_back(&u);

  MovedBytes moved(shared.progress);  // the live rate, in lumps
  shared.start.arrive_and_wait();  // every thread starts together
  w.start_ns = now_ns();
  const std::uint64_t deadline = plan.seconds ? w.start_ns + plan.seconds * 1'000'000'000ull : 0;
  std::uint64_t pass = 0, k = 0;
  // Size-bounded: one pass. Time-bounded: passes until the deadline (each random pass reshuffled).
  const auto more = [&] {
    if (shared.stop.load(std::memory_order_relaxed) || shared.interrupt.stop_requested()) return false;
    return deadline ? now_ns() < deadline : k < blocks;
  };
  std::size_t in_flight = 0;
  try {
    for (;;) {
      // Each IO is submitted as soon as it is queued (fio's default iodepth_batch_submit=1): the
      // device sees a steady stream rather than bursts, which measured 0.87-0.97 of fio's 4 KiB
      // random-read IOPS when the freed slots went in one submission (docs/io.md).
      while (!idle.empty() && in_flight < w.depth && more()) {
        if (k == blocks) {
          ++pass;
          k = 0;
        }
        IoUnit& u = *idle.front();
        idle.pop_front();
        w.data->settle(u);  // CPU_GPU: its bounce buffer is free once its copy is done
        const IoExtent e = layout.at(pass, k++);
        u.offset = w.base + e.offset;
        u.length = e.length;
        u.op = e.read ? IoOp::read : IoOp::write;
        u.done = 0;
        if (u.op == IoOp::write) w.data->prepare_write(u);
        u.start_ns = now_ns();
        w.engine->queue(u);
        w.engine->submit();
        ++in_flight;
      }
      if (in_flight == 0) {
        // The run ends when the last device copy is done (and checked).
        for (const IoUnit& u : w.units) w.data->settle(u);
        break;
      }
      const std::size_t n = w.engine->reap(1, reaped);
      const std::uint64_t t = now_ns();
      for (std::size_t i = 0; i < n; ++i) {
        IoUnit& u = *reaped[i];
        --in_flight;
        w.latency.record(t - u.start_ns);
        w.bytes += u.length;
        moved.add(u.length);
        ++w.ops;
        if (u.op == IoOp::read) w.data->read_done(u);  // CPU_GPU: on to device memory
        idle.push_back(&u);
      }
    }
  } catch (...) {
    w.error = std::current_exception();
    shared.stop.store(true, std::memory_order_relaxed);
  }
  w.end_ns = now_ns();
  w.covered = layout.covers_region() && !plan.read_percent && is_write(plan.pattern) && !w.error && w.ops >= blocks;
}

// The process's user and system CPU seconds so far (getrusage).
std::pair<double, double> cpu_seconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return {s(r.ru_utime), s(r.ru_stime)};
}

// The case's config, with where the data lived: the backend and device, the buffers of each kind,
// and for GPUD how the direct path really moved the data (GDS or cuFile's compat mode).
IoConfig plan_config(const IoPlan& plan, std::string_view engine, unsigned depth, std::uint64_t alignment,
                     const std::string& features, const FileSet& files, const Backend* backend, const Device* device,
                     const DirectStorage* direct) {
  IoConfig c{.directory = plan.directory.string(), .file = plan.file.string(), .files = {}, .threads = plan.threads,
             .rw = std::string(to_string(plan.pattern)), .size_per_thread_requested = share_per_thread(plan),
             .size_per_thread = whole_bytes_per_thread(plan), .data_set_requested = data_set_requested(plan),
             .shared_size = one_shared_data_set(plan), .offset = plan.offset, .io_size = plan.io_bytes,
             .io_size_min = plan.io_min_bytes ? plan.io_min_bytes : plan.io_bytes, .io_size_step = plan.io_step_bytes,
             .random_alignment = plan.random_alignment, .engine = std::string(engine), .engine_features = features,
             .queue_depth_requested = plan.queue_depth, .queue_depth = depth, .direct = !buffered_io(plan),
             .direct_alignment = alignment, .verify = plan.verify, .seconds = plan.seconds, .seed = plan.seed,
             .buffers = "pageable, each page-aligned, one pool of queue_depth buffers per thread",
             .transfer = std::string(to_string(plan.transfer))};
  for (const auto& f : files.files()) c.files.push_back(f.path);
  c.order_seed = plan.order_seed;
  c.read_percent = plan.read_percent;
  c.numa_node = plan.numa_node;
  if (!uses_device(plan.transfer)) return c;
  IoDeviceConfig& d = c.device.emplace();
  d.backend = backend->name();
  d.device = plan.device;
  d.device_name = device->info().name;
  if (direct != nullptr) {
    d.direct_storage = direct->name();
    d.direct_storage_mode = direct->mode();
    d.registered_buffers = plan.register_buffers;
    c.buffers =
        "device memory, one buffer per thread, registered with the direct storage path; the file IO moves data "
        "between the file and it without a host bounce buffer (a write's pattern is first copied into it from pinned "
        "host memory; a verified read is copied back to be checked)";
    return c;
  }
  d.bounce_buffers_per_thread = kBounceSetsPerDepth * depth;
  c.buffers = fmt::format(
      "pinned host bounce buffers from the device runtime, 2 x queue_depth per thread (the engine reads into and "
      "writes from them), each with a region of device memory behind it; {}{}",
      plan.transfer == IoTransfer::cpu_async_gpu
          ? "reads are copied on with a device stream while the next IOs run"
          : "each read is copied on into device memory before the thread's next IO",
      plan.transfer == IoTransfer::cpu_cached_gpu ? "; the file IO goes through the page cache" : "");
  return c;
}

// What a direct transfer type needs of the direct storage path beyond GPUD's synchronous calls; the
// device interface has none of these yet, so they end with Unavailable (exit 3) everywhere.
std::string_view direct_api_needed(IoTransfer t) {
  switch (t) {
    case IoTransfer::gpu_direct_async: return "cuFile's stream API (cuFileReadAsync / cuFileWriteAsync)";
    case IoTransfer::gpu_batch: return "cuFile's batch API (cuFileBatchIOSetUp / cuFileBatchIOSubmit)";
    case IoTransfer::gpu_batch_stream: return "cuFile's batch API on a stream";
    default: return "";
  }
}

// Whether the machine can move data where the plan asks: Unavailable (exit 3) if not.
void check_transfer(const IoPlan& plan, const Backend* backend) {
  if (!uses_device(plan.transfer)) return;
  const std::string what =
      fmt::format("{} {}", flag("io.transfer"), flag_value("io.transfer", to_string(plan.transfer)));
  if (backend == nullptr) {
    throw std::logic_error(fmt::format("io job: {} needs a device backend", to_string(plan.transfer)));
  }
  if (const Support s = backend->availability(); !s.ok) {
    throw MachineLimit(fmt::format("{}: the {} backend cannot run here: {}", what, backend->name(), s.reason));
  }
  const Capabilities& caps = backend->capabilities();
  if (!caps.virtual_devices && plan.device >= backend->device_count()) {
    throw PlanError(fmt::format("{} {}: the {} backend has {} device(s), numbered from 0", flag("io.device"),
                                plan.device, backend->name(), backend->device_count()));
  }
  if (is_direct(plan.transfer)) {
    // A capability decides, not a backend's name: a CUDA backend with cuFile will say so.
    if (!caps.storage_direct) {
      throw MachineLimit(
          fmt::format("{} needs a GPU backend with GPU-direct storage (cuFile); the {} backend has none "
                      "(the bounce types move the data through pinned host memory instead)",
                      what, backend->name()));
    }
    if (const auto api = direct_api_needed(plan.transfer); !api.empty()) {
      throw MachineLimit(
          fmt::format("{} needs {}, which xferbench's {} backend does not drive yet", what, api, backend->name()));
    }
    // Whether the path really opens (libcufile present, its driver willing) is known only once the
    // device is open: run_io opens it before it makes any file.
  }
}

}  // namespace

void validate_io_plan(const IoPlan& plan, const Backend* backend) {
  if (find_io_engine(plan.engine) == nullptr) {
    throw PlanError(fmt::format("{} {}: expected {}", flag("io.engine"), plan.engine, io_engine_names()));
  }
  require_in_range(plan.threads, "io.threads", "a thread count", 1, kMaxThreads);
  require_in_range(plan.queue_depth, "io.queue_depth", "a queue depth", 1, kMaxQueueDepth);
  if (plan.io_bytes < 1 || plan.io_bytes > kMaxIoBytes) {
    throw PlanError(fmt::format("{} {}: expected an IO size from 1 byte to {}", flag("io.io_size"), plan.io_bytes,
                                format_size(kMaxIoBytes)));
  }
  if (plan.file_bytes < plan.io_bytes) {
    throw PlanError(fmt::format("{} {}: smaller than the IO size ({} {}); each thread needs at least one IO",
                                flag("io.size"), format_size(plan.file_bytes), flag("io.io_size"),
                                format_size(plan.io_bytes)));
  }
  if (share_per_thread(plan) < plan.io_bytes) {
    throw PlanError(
        fmt::format("{} {} shared by {} {} threads: each thread's share ({}) is smaller than the IO size "
                    "({} {}); each thread needs at least one IO",
                    flag("io.size"), format_size(plan.file_bytes), flag("io.threads"), plan.threads,
                    format_size(share_per_thread(plan)), flag("io.io_size"), format_size(plan.io_bytes)));
  }
  if (plan.file_bytes > kMaxSize / plan.threads || plan.offset > kMaxSize - data_set_requested(plan)) {
    throw PlanError(fmt::format("{} {} x {} {}: more than {} in all", flag("io.size"), format_size(plan.file_bytes),
                                flag("io.threads"), plan.threads, format_size(kMaxSize)));
  }
  require_in_range(plan.device, "io.device", "a device index", 0, kMaxDevice);
  if (plan.seconds > kMaxSeconds) {
    throw PlanError(fmt::format("{} {}: expected at most {} seconds", flag("io.seconds"), plan.seconds, kMaxSeconds));
  }
  if (plan.io_min_bytes != 0) {
    if (plan.io_min_bytes > plan.io_bytes) {
      throw PlanError(fmt::format("{} {}:{}: the smallest IO size is above the largest", flag("io.io_size"),
                                  format_size(plan.io_min_bytes), format_size(plan.io_bytes)));
    }
    if (plan.io_min_bytes < plan.io_bytes && plan.io_step_bytes == 0) {
      throw PlanError(fmt::format("{} MIN:MAX:STEP: the step must be at least 1 byte", flag("io.io_size")));
    }
    if (io_pieces(plan, whole_bytes_per_thread(plan)) > kMaxPieces / plan.threads) {
      throw PlanError(fmt::format(
          "{} {}:...: {} threads x {} IOs of at least {} are more than {} in all; raise the "
          "smallest size or lower {}",
          flag("io.io_size"), format_size(plan.io_min_bytes), plan.threads,
          io_pieces(plan, whole_bytes_per_thread(plan)), format_size(plan.io_min_bytes), kMaxPieces, flag("io.size")));
    }
  }
  if (plan.read_percent) {
    if (*plan.read_percent > 100) {
      throw PlanError(fmt::format("{} {}: expected a percentage of reads from 0 to 100", flag("io.read_percent"),
                                  *plan.read_percent));
    }
    if (plan.verify) {
      throw PlanError(fmt::format("{} with {}: a mixed run rewrites what it reads; verify a read run instead",
                                  flag("io.read_percent"), flag("io.verify")));
    }
  }
  if (plan.numa_node) {
    const auto nodes = online_numa_nodes();
    if (std::find(nodes.begin(), nodes.end(), *plan.numa_node) == nodes.end()) {
      throw PlanError(fmt::format("{} {}: no such NUMA node online; this machine has {}", flag("io.numa"),
                                  *plan.numa_node, fmt::join(nodes, ", ")));
    }
  }
  // CPU_GPU: bounce buffers, the host buffers that check reads, and device memory where it is host RAM.
  double per_io = 1;
  if (is_bounce(plan.transfer) && backend != nullptr) {
    per_io = kBounceSetsPerDepth * ((plan.verify ? 2.0 : 1.0) + (backend->capabilities().device_memory_in_host_ram ? 1 : 0));
  }
  const double buffers =
      per_io * static_cast<double>(plan.threads) * plan.queue_depth * static_cast<double>(plan.io_bytes);
  if (!fits_in_memory(buffers, static_cast<double>(available_memory_bytes()))) {
    throw MachineLimit(
        fmt::format("{} {} x {} {} x {} {}: the buffers need {}, more than the memory available; lower one",
                    flag("io.threads"), plan.threads, flag("io.queue_depth"), plan.queue_depth, flag("io.io_size"),
                    format_size(plan.io_bytes), format_bytes_human(static_cast<std::uint64_t>(buffers))));
  }
  const FileSetSpec spec = file_spec(plan);
  validate_file_set_paths(spec);
  if (!buffered_io(plan)) {
    const auto probe = alignment_probe(plan);
    const std::uint64_t align = direct_io_alignment(probe);
    const std::string where = plan.directory.empty() ? flag("files.file") : flag("files.directory");
    if (align == 0) {
      throw PlanError(fmt::format("{} {}: the file system does not support O_DIRECT; use {}", where, probe.string(),
                                  flag("io.buffered")));
    }
    if (plan.io_bytes % align != 0) {
      throw PlanError(fmt::format(
          "{} {}: with O_DIRECT the IO size must be a multiple of the logical block size, {} bytes on {} (or use {})",
          flag("io.io_size"), plan.io_bytes, align, probe.string(), flag("io.buffered")));
    }
    for (const auto& [value, field, what] : {std::tuple{plan.io_min_bytes, flag("io.io_size"), "smallest IO size"},
                                             std::tuple{plan.io_step_bytes, flag("io.io_size"), "IO size step"},
                                             std::tuple{is_random(plan.pattern) ? plan.random_alignment : 0,
                                                        flag("io.alignment"), "random offsets' alignment"},
                                             std::tuple{plan.offset, flag("io.offset"), "start offset"}}) {
      if (value % align != 0) {
        throw PlanError(
            fmt::format("{} {}: with O_DIRECT the {} must be a multiple of the logical block size, {} bytes on {}",
                        field, value, what, align, probe.string()));
      }
    }
  }
  check_transfer(plan, backend);
  check_files_to_read(spec);
  if (const auto short_of = space_shortfall(spec)) {
    throw MachineLimit(fmt::format("{} {} x {} {}: the files need {} more on {}, which has {} free; lower {}",
                                   flag("io.size"), format_size(plan.file_bytes), flag("io.threads"), plan.threads,
                                   format_bytes_human(short_of->needed), short_of->where.string(),
                                   format_bytes_human(short_of->free), flag("io.size")));
  }
}

namespace {

CaseResult run_io(const IoPlan& plan, Backend* backend, ProgressLine* progress, const std::stop_token& interrupt) {
  validate_io_plan(plan, backend);
  const IoEngineInfo& engine = *find_io_engine(plan.engine);
  // GPUD's IOs are synchronous calls into the direct path (cuFileRead/cuFileWrite), one at a time
  // per thread, as gdsio's GPUD threads make them: the plan's engine and depth do not apply.
  const bool direct_io = is_direct(plan.transfer);
  const unsigned depth = direct_io ? 1 : effective_queue_depth(plan, engine);
  const std::uint64_t per_thread = whole_bytes_per_thread(plan);
  const std::uint64_t alignment = buffered_io(plan) ? 0 : direct_io_alignment(alignment_probe(plan));
  // -n: this thread's CPUs and memory policy for the setup (the buffers) and the IO threads it
  // starts, which inherit both; put back when the run returns.
  std::optional<NumaBinding> numa;
  if (plan.numa_node) numa.emplace(*plan.numa_node);

  // Everything is set up before the clock starts (an engine the kernel lacks throws Unavailable here,
  // on this thread). The device and GPUD's direct storage path, shared by the threads, are declared
  // before the workers, which they must outlive; the path opens before any file is made, so that a
  // missing library (Unavailable) leaves nothing behind.
  std::unique_ptr<Device> device;
  if (uses_device(plan.transfer)) device = backend->open_device(plan.device);
  std::unique_ptr<DirectStorage> direct;
  if (direct_io) direct = device->open_direct_storage();
  FileSet files(file_spec(plan));
  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned t = 0; t < plan.threads; ++t) {
    auto w = std::make_unique<Worker>();
    w->file_index = files.file_of(t);
    w->base = files.region_start(t);
    w->depth = depth;
    const std::string_view stream_engine =
        backend != nullptr ? std::string_view(backend->capabilities().engines.front()) : std::string_view();
    w->data = make_io_data_path({plan, engine, depth, files.files()[w->file_index], file_seed(plan, w->file_index),
                                 device.get(), stream_engine, direct.get()});
    const auto slots = w->data->slots();
    for (std::uint32_t s = 0; s < slots.size(); ++s) {
      w->units.push_back({.buffer = slots[s].data(), .length = plan.io_bytes,
                          .file = 0,  // the engine sees only this thread's file
                          .op = is_write(plan.pattern) ? IoOp::write : IoOp::read, .slot = s});
    }
    w->engine =
        w->data->make_engine({files.files().subspan(w->file_index, 1), slots, IoEngineOptions{depth, true, true}});
    workers.push_back(std::move(w));
  }

  std::latch start(plan.threads);
  std::atomic<bool> stop{false};
  const auto [user_before, sys_before] = cpu_seconds();
  run_thread_team(workers.size(), start, stop,
                  [&](std::size_t i) { run_worker(*workers[i], plan, per_thread, Shared{start, stop, progress, interrupt}); });
  const auto [user_after, sys_after] = cpu_seconds();
  stop_here_if_asked(interrupt);  // stopped early: no case (and no file set marked whole)

  const TeamTally team = sum_tallies(workers);
  const std::uint64_t wall_ns = team.wall_ns();
  const double wall = static_cast<double>(wall_ns) / 1e9;
  if (team.error) {
    const std::string planned = plan.seconds ? fmt::format("in {:.3f} of {} s", wall, plan.seconds)
                                             : fmt::format("of {}", plan.threads * per_thread);
    throw std::runtime_error(fmt::format("{}; done before the error: {} bytes {} in {} IOs", error_text(team.error),
                                         team.bytes, planned, team.ops));
  }
  // Only a write of every thread's whole region (-T may stop sooner) records the set as complete.
  if (std::ranges::all_of(workers, [](const auto& w) { return w->covered; })) files.mark_written(plan.io_bytes);

  const std::string engine_name(direct ? direct->name() : engine.name);
  CaseResult result;
  result.job = "io";
  result.config = plan_config(plan, engine_name, depth, alignment, workers.front()->engine->features(), files, backend,
                              device.get(), direct.get());
  result.metrics =
      io_case_metrics({team.bytes, team.ops, wall_ns, user_after - user_before, sys_after - sys_before}, team.latency);

  const std::string where = plan.directory.empty() ? plan.file.string() : plan.directory.string();
  const std::string mode = buffered_io(plan) ? "buffered" : "direct";
  result.labels = {{"rw", std::string(to_string(plan.pattern))},
                   {"engine", engine_name},
                   {"threads", std::to_string(plan.threads)},
                   {"qd", std::to_string(depth)},
                   {"io_size", format_size(plan.io_bytes)},
                   {"size", format_size(per_thread)},
                   {"mode", mode},
                   {"xfer", std::string(to_string(plan.transfer))}};
  result.name =
      fmt::format("{}_{}_{}_qd{}_{}", to_string(plan.pattern), engine_name, format_size(plan.io_bytes), depth, mode);
  if (device) result.name += "_" + std::string(to_string(plan.transfer));
  result.title = fmt::format("{} {} IOs with {} at queue depth {} on {} thread(s), {} per thread in {}{}{}",
                             to_string(plan.pattern), format_size(plan.io_bytes), engine_name, depth, plan.threads,
                             format_size(per_thread), where, buffered_io(plan) ? " (buffered)" : " (O_DIRECT)",
                             plan.seconds ? fmt::format(", for {} s", plan.seconds) : "");
  if (direct) {
    result.title += fmt::format(", straight into and out of {} ({})", device->info().name, direct->mode());
  } else if (device) {
    result.title += fmt::format(", into and out of {} through pinned bounce buffers", device->info().name);
  }
  return result;
}

}  // namespace

std::vector<CaseResult> run(const IoPlan& plan, JobContext& ctx) {
  const ProgressStep step(ctx.progress, fmt::format("io: {} {} with {}, {} thread(s)…", to_string(plan.pattern),
                                                    format_size(plan.io_bytes), plan.engine, plan.threads));
  // The work, for the line's share done: a time bound (counted from the step's start, so laying
  // out the files is inside it), or one pass over every thread's region in whole IOs.
  if (plan.seconds > 0) {
    step.expect_seconds(static_cast<double>(plan.seconds));
  } else {
    step.expect_bytes(whole_bytes_per_thread(plan) * plan.threads);
  }
  std::vector<CaseResult> cases{run_io(plan, ctx.backend, ctx.progress, ctx.stop)};
  ctx.emit(cases.back());
  return cases;
}

}  // namespace xb
