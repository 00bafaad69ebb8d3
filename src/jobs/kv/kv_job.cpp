#include "jobs/kv/kv_job.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <exception>
#include <latch>
#include <optional>
#include <stdexcept>

#include "core/clock.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "core/pattern.hpp"
#include "core/plan_error.hpp"
#include "core/size.hpp"
#include "core/stop.hpp"
#include "core/unique_fd.hpp"
#include "jobs/kv/kv_config.hpp"
#include "jobs/kv/kv_metrics.hpp"
#include "jobs/worker_tally.hpp"
#include "memory/host_buffer.hpp"
#include "runtime/thread_team.hpp"
#include "storage/file_set.hpp"
#include "storage/kv_store.hpp"

namespace xb {

namespace {
constexpr NamedValue<KvOp> kKvOpNames[] = {{KvOp::dump, "dump"}, {KvOp::load, "load"}};
constexpr NamedValue<KvSync> kKvSyncNames[] = {{KvSync::none, "none"}, {KvSync::block, "block"}, {KvSync::end, "end"}};
constexpr NamedValue<KvTarget> kKvTargetNames[] = {{KvTarget::host, "host"}, {KvTarget::device, "device"}};
}  // namespace

std::string_view to_string(KvOp op) { return name_of(kKvOpNames, op); }
std::string_view to_string(KvSync sync) { return name_of(kKvSyncNames, sync); }
std::string_view to_string(KvTarget target) { return name_of(kKvTargetNames, target); }
std::optional<KvOp> kv_op_from(std::string_view name) { return value_named(kKvOpNames, name); }
std::optional<KvSync> kv_sync_from(std::string_view name) { return value_named(kKvSyncNames, name); }
std::optional<KvTarget> kv_target_from(std::string_view name) { return value_named(kKvTargetNames, name); }

namespace {

// Each thread holds one temporary at a time, registered with core/cleanup, whose table has 256
// slots: 128 threads leave room for the rest of the program.
constexpr unsigned kMaxThreads = 128;
constexpr std::uint64_t kMaxBlocks = std::uint64_t{1} << 32;
constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{1} << 30;  // one pread/pwrite moves < 2 GiB
constexpr std::uint64_t kMaxPasses = 1'000'000;

bool to_device(const KvPlan& plan) { return plan.op == KvOp::load && plan.target == KvTarget::device; }

// The whole block from its file's start, resumed when short: pwrite for a dump, pread for a load.
void move_all(bool write, int fd, std::span<std::byte> data, const std::filesystem::path& path, std::uint64_t id) {
  std::size_t done = 0;
  while (done < data.size()) {
    const std::size_t left = data.size() - done;
    const auto at = static_cast<off_t>(done);
    const ssize_t n = write ? pwrite(fd, data.data() + done, left, at) : pread(fd, data.data() + done, left, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw_errno(write ? fmt::format("block {}: pwrite({}, offset {}, {} bytes)", id, path.string(), done, left)
                        : fmt::format("block {}: pread({}, offset {}, {} bytes)", id, path.string(), done, left));
    }
    if (n == 0 && write) {
      throw std::runtime_error(fmt::format("block {}: pwrite({}) wrote nothing at offset {}", id, path.string(), done));
    }
    if (n == 0) {
      throw std::runtime_error(fmt::format("block {}: {} ends at byte {}, expected {} bytes", id, path.string(), done,
                                           data.size()));
    }
    done += static_cast<std::size_t>(n);
  }
}

// One thread's state. The stream goes before the device memory it copies into.
struct KvWorker : WorkerTally {  // ops: blocks
  std::unique_ptr<HostBuffer> buffer;     // the IO buffer (dump, load --to host)
  std::unique_ptr<Allocation> bounce;     // load --to device: pinned, from the device's allocator
  std::unique_ptr<Allocation> slot;       // load --to device: where each block lands
  std::unique_ptr<Allocation> readback;   // load --to device --verify: device memory copied back
  std::unique_ptr<Stream> stream;
  unsigned index = 0;                     // the thread's, for its temporaries' names

  std::span<std::byte> io_span(std::size_t bytes_per_block) const {
    if (bounce) return {static_cast<std::byte*>(bounce->data()), bytes_per_block};
    return {buffer->data(), bytes_per_block};
  }
};

struct Shared {
  std::latch& start;
  std::atomic<bool>& stop;
  std::atomic<std::uint64_t>& next;  // the next item of the shared block list
  ProgressLine* progress;             // the live rate (may be null)
  std::stop_token interrupt;          // the run is ending on a signal: every worker stops
};

void dump_block(KvWorker& w, const KvPlan& plan, std::uint64_t id) {
  const auto data = w.io_span(plan.block_bytes);
  // The pattern is made before the clock starts: a block's latency is its storing, not its content.
  fill_pattern(data, kv_block_seed(plan.seed, id), 0);
  const std::uint64_t t0 = now_ns();
  make_kv_block_dirs(plan.store, id);
  KvTempBlock temp(plan.store, id, w.index, !plan.buffered);
  move_all(true, temp.fd(), data, temp.path(), id);
  if (plan.sync == KvSync::block && fdatasync(temp.fd()) != 0) {
    throw_errno(fmt::format("block {}: fdatasync({})", id, temp.path().string()));
  }
  temp.publish();
  w.latency.record(now_ns() - t0);
}

void verify_block(std::span<const std::byte> data, const KvPlan& plan, std::uint64_t id, const char* where) {
  const std::uint64_t seed = kv_block_seed(plan.seed, id);
  if (auto bad = find_pattern_mismatch(data, seed, 0)) {
    throw std::runtime_error(fmt::format("verify failed: block {} ({}) byte at offset {} is 0x{:02x}, expected 0x{:02x}{}",
                                         id, kv_block_path(plan.store, id).string(), *bad,
                                         static_cast<unsigned>(data[*bad]), pattern_byte(seed, *bad), where));
  }
}

void load_block(KvWorker& w, const KvPlan& plan, std::uint64_t id) {
  const auto data = w.io_span(plan.block_bytes);
  const auto path = kv_block_path(plan.store, id);
  const std::uint64_t t0 = now_ns();
  const UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | (plan.buffered ? 0 : O_DIRECT)));
  if (!fd.valid() && errno == ENOENT) {
    throw std::runtime_error(fmt::format("block {} is missing from the store: {} does not exist", id, path.string()));
  }
  if (!fd.valid()) throw_errno(fmt::format("block {}: open({})", id, path.string()));
  move_all(false, fd.get(), data, path, id);
  if (w.stream) {
    w.stream->copy({w.slot->data(), data.data(), data.size()});
    w.stream->synchronize();
  }
  w.latency.record(now_ns() - t0);
  if (!plan.verify) return;
  if (w.stream) {
    // Device memory may not be host-addressable (CUDA): check what comes back from it.
    w.stream->copy({w.readback->data(), w.slot->data(), data.size()});
    w.stream->synchronize();
    verify_block({static_cast<const std::byte*>(w.readback->data()), data.size()}, plan, id,
                 " (read back from device memory)");
  } else {
    verify_block(data, plan, id, "");
  }
}

void run_worker(KvWorker& w, const KvPlan& plan, Shared shared) {
  const std::uint64_t items = plan.blocks * plan.passes;
  MovedBytes moved(shared.progress);  // the live rate, in lumps
  shared.start.arrive_and_wait();  // every thread starts together
  w.start_ns = now_ns();
  try {
    while (!shared.stop.load(std::memory_order_relaxed) && !shared.interrupt.stop_requested()) {
      const std::uint64_t k = shared.next.fetch_add(1, std::memory_order_relaxed);
      if (k >= items) break;
      const std::uint64_t id = k % plan.blocks;
      if (plan.op == KvOp::dump) dump_block(w, plan, id);
      else load_block(w, plan, id);
      w.bytes += plan.block_bytes;
      ++w.ops;
      moved.add(plan.block_bytes);
    }
  } catch (...) {
    w.error = std::current_exception();
    shared.stop.store(true, std::memory_order_relaxed);
  }
  w.end_ns = now_ns();
}

// syncfs of the store's file system: one call makes every block and every rename durable.
void sync_store(const std::filesystem::path& store) {
  const UniqueFd fd(open(store.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) throw_errno(fmt::format("open({})", store.string()));
  if (syncfs(fd.get()) != 0) throw_errno(fmt::format("syncfs({})", store.string()));
}

std::string_view latency_span(const KvPlan& plan) {
  if (plan.op == KvOp::dump) {
    return plan.sync == KvSync::block ? "mkdir, create the temporary, pwrite, fdatasync, rename"
                                      : "mkdir, create the temporary, pwrite, rename";
  }
  return to_device(plan) ? "open, pread into the pinned buffer, copy to device memory, synchronize"
                         : "open, pread into host memory";
}

KvConfig plan_config(const KvPlan& plan, std::uint64_t alignment, const std::string& engine) {
  KvConfig c{.op = std::string(to_string(plan.op)), .store = plan.store.string(),
             .layout = "one file per block: STORE/ab/cd/<16 hex digits of splitmix64(block id)>",
             .blocks = plan.blocks, .block_bytes = plan.block_bytes, .threads = plan.threads, .passes = plan.passes,
             .io = "pread/pwrite of the whole block, one call per block (resumed when short)",
             .direct = !plan.buffered, .direct_alignment = alignment, .seed = plan.seed,
             .latency_span = std::string(latency_span(plan))};
  if (plan.op == KvOp::dump) {
    c.sync = to_string(plan.sync);
    c.publish = "written to <name>.tmp-<pid>.<thread>, renamed to <name> when whole";
    return c;
  }
  c.to = to_string(plan.target);
  c.verify = plan.verify;
  if (to_device(plan)) {
    c.device = KvDeviceConfig{plan.backend, plan.device, engine,
                              "one block-sized slot per thread, overwritten by each block the thread loads"};
  }
  return c;
}

}  // namespace

void validate_kv_plan(const KvPlan& plan, const Backend* backend) {
  namespace fs = std::filesystem;
  require_in_range(plan.blocks, "kv.blocks", "a block count", 1, kMaxBlocks);
  if (plan.block_bytes < 1 || plan.block_bytes > kMaxBlockBytes) {
    throw PlanError(fmt::format("{} {}: expected a block size from 1 byte to {}", flag("kv.block"), plan.block_bytes,
                                format_size(kMaxBlockBytes)));
  }
  require_in_range(plan.threads, "kv.threads", "a thread count", 1, kMaxThreads);
  require_in_range(plan.passes, "kv.passes", "a pass count", 1, kMaxPasses);
  if (plan.blocks > kMaxSize / plan.block_bytes) {
    throw PlanError(fmt::format("{} {} x {} {}: more than {} in all", flag("kv.blocks"), plan.blocks, flag("kv.block"),
                                format_size(plan.block_bytes), format_size(kMaxSize)));
  }
  if (plan.verify && plan.op == KvOp::dump) {
    throw PlanError(flag("kv.verify") + ": checks what a load reads; a dump always writes the verifiable pattern");
  }
  std::error_code ec;
  const auto st = fs::status(plan.store, ec);
  if (plan.store.empty()) {
    throw PlanError(fmt::format("{}: required, the directory of the block store", flag("kv.store")));
  }
  if (st.type() == fs::file_type::not_found) {
    throw PlanError(fmt::format("{} {}: the directory does not exist", flag("kv.store"), plan.store.string()));
  }
  if (st.type() != fs::file_type::directory) {
    throw PlanError(fmt::format("{} {}: not a directory", flag("kv.store"), plan.store.string()));
  }
  if (plan.op == KvOp::dump && access(plan.store.c_str(), W_OK | X_OK) != 0) {
    throw PlanError(fmt::format("{} {}: the directory is not writable", flag("kv.store"), plan.store.string()));
  }
  if (!plan.buffered) {
    const std::uint64_t align = direct_io_alignment(plan.store);
    if (align == 0) {
      throw PlanError(fmt::format("{} {}: the file system does not support O_DIRECT; use {}", flag("kv.store"),
                                  plan.store.string(), flag("kv.buffered")));
    }
    if (plan.block_bytes % align != 0) {
      throw PlanError(fmt::format(
          "{} {}: with O_DIRECT the block size must be a multiple of the logical block size, {} bytes on {} "
          "(or use {})",
          flag("kv.block"), plan.block_bytes, align, plan.store.string(), flag("kv.buffered")));
    }
  }
  // Host buffers per thread: the IO buffer, plus a buffer to read device memory back into for --verify.
  const std::uint64_t host_per_thread = plan.block_bytes * (to_device(plan) && plan.verify ? 2 : 1);
  double memory = static_cast<double>(plan.threads) * static_cast<double>(host_per_thread);
  if (to_device(plan)) {
    if (backend == nullptr) throw std::logic_error("kv: a load --to device needs a backend");
    const Capabilities& caps = backend->capabilities();
    if (plan.device < 0 || (!caps.virtual_devices && plan.device >= backend->device_count())) {
      throw PlanError(fmt::format("{} {}: the {} backend has devices 0 to {}", flag("kv.device"), plan.device,
                                  backend->name(), backend->device_count() - 1));
    }
    if (!plan.engine.empty() && std::find(caps.engines.begin(), caps.engines.end(), plan.engine) == caps.engines.end()) {
      throw PlanError(fmt::format("{} {}: not one of the {} backend's copy engines", flag("kv.engine"), plan.engine,
                                  backend->name()));
    }
    if (caps.device_memory_in_host_ram) memory += static_cast<double>(plan.threads) * static_cast<double>(plan.block_bytes);
  }
  if (!fits_in_memory(memory, static_cast<double>(available_memory_bytes()))) {
    throw MachineLimit(fmt::format("{} {} x {} {}: the buffers need {}, more than the memory available; lower one",
                                   flag("kv.threads"), plan.threads, flag("kv.block"), format_size(plan.block_bytes),
                                   format_bytes_human(static_cast<std::uint64_t>(memory))));
  }
  if (plan.op == KvOp::load) {
    // Up front, in block order, so the error names the first missing block whatever the threads do.
    for (std::uint64_t id = 0; id < plan.blocks; ++id) {
      const auto path = kv_block_path(plan.store, id);
      struct stat sb {};
      if (stat(path.c_str(), &sb) != 0) {
        if (errno == ENOENT) {
          throw std::runtime_error(fmt::format("load: block {} is missing from the store: {} does not exist (dump it first)",
                                               id, path.string()));
        }
        throw_errno(fmt::format("block {}: stat({})", id, path.string()));
      }
      if (static_cast<std::uint64_t>(sb.st_size) != plan.block_bytes) {
        throw std::runtime_error(fmt::format("load: block {} ({}) is {} bytes, expected --block {} ({} bytes)", id,
                                             path.string(), sb.st_size, format_size(plan.block_bytes), plan.block_bytes));
      }
    }
  }
}

namespace {

CaseResult run_kv(const KvPlan& plan, Backend* backend, ProgressLine* progress, const std::stop_token& interrupt) {
  validate_kv_plan(plan, backend);
  const std::uint64_t alignment = plan.buffered ? 0 : direct_io_alignment(plan.store);

  // Everything is set up before the clock starts: buffers, the device, its memory and streams.
  std::unique_ptr<Device> device;
  std::string engine;
  if (to_device(plan)) {
    device = backend->open_device(plan.device);
    engine = plan.engine.empty() ? backend->capabilities().engines.front() : plan.engine;
  }
  std::vector<std::unique_ptr<KvWorker>> workers;
  for (unsigned t = 0; t < plan.threads; ++t) {
    auto w = std::make_unique<KvWorker>();
    w->index = t;
    if (device) {
      w->bounce = device->allocate_host(plan.block_bytes, true);
      w->slot = device->allocate(plan.block_bytes);
      if (plan.verify) w->readback = device->allocate_host(plan.block_bytes, false);
      w->stream = device->create_stream(engine);
    } else {
      w->buffer = make_host_buffer(HostMemoryKind::pageable, plan.block_bytes);
    }
    workers.push_back(std::move(w));
  }

  std::latch start(plan.threads);
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> next{0};
  run_thread_team(workers.size(), start, stop,
                  [&](std::size_t i) { run_worker(*workers[i], plan, Shared{start, stop, next, progress, interrupt}); });
  stop_here_if_asked(interrupt);  // stopped early: no case (and no store marked whole)

  TeamTally team = sum_tallies(workers);
  if (team.error) {
    throw std::runtime_error(fmt::format("{}; done before the error: {} of {} blocks ({} bytes)", error_text(team.error),
                                         team.ops, plan.blocks * plan.passes, team.bytes));
  }
  // The end-of-run sync is part of the dump: it is not done until the blocks are durable.
  std::uint64_t sync_ns = 0;
  if (plan.op == KvOp::dump && plan.sync == KvSync::end) {
    const std::uint64_t t0 = now_ns();
    sync_store(plan.store);
    team.last_end_ns = now_ns();
    sync_ns = team.last_end_ns - t0;
  }

  CaseResult result;
  result.job = "kv";
  result.config = plan_config(plan, alignment, engine);
  const std::optional<std::uint64_t> dump_sync = plan.op == KvOp::dump ? std::optional(sync_ns) : std::nullopt;
  result.metrics = kv_case_metrics({team.ops, team.bytes, team.wall_ns(), dump_sync}, team.latency, latency_span(plan));

  const std::string mode = plan.buffered ? "buffered" : "direct";
  result.labels = {{"op", std::string(to_string(plan.op))},
                   {"blocks", std::to_string(plan.blocks)},
                   {"block", format_size(plan.block_bytes)},
                   {"threads", std::to_string(plan.threads)},
                   {"mode", mode}};
  if (plan.op == KvOp::dump) {
    result.labels.emplace_back("sync", std::string(to_string(plan.sync)));
    result.name = fmt::format("kv_dump_{}_sync_{}_{}", format_size(plan.block_bytes), to_string(plan.sync), mode);
    result.title = fmt::format("dump {} KV blocks of {} to {} on {} thread(s), sync {}{}", plan.blocks,
                               format_size(plan.block_bytes), plan.store.string(), plan.threads, to_string(plan.sync),
                               plan.buffered ? " (buffered)" : " (O_DIRECT)");
  } else {
    const std::string to = to_device(plan) ? fmt::format("{}::device::{}", plan.backend, plan.device) : "host";
    result.labels.emplace_back("to", to);
    result.name = fmt::format("kv_load_{}_to_{}_{}", format_size(plan.block_bytes), to_string(plan.target), mode);
    result.title = fmt::format("load {} KV blocks of {} from {} into {} on {} thread(s){}{}", plan.blocks,
                               format_size(plan.block_bytes), plan.store.string(),
                               to_device(plan) ? to + " memory" : "host memory", plan.threads,
                               plan.buffered ? " (buffered)" : " (O_DIRECT)", plan.verify ? ", verified" : "");
  }
  if (plan.passes > 1) result.title += fmt::format(", {} passes", plan.passes);
  return result;
}

}  // namespace

std::vector<CaseResult> run(const KvPlan& plan, JobContext& ctx) {
  const ProgressStep step(ctx.progress,
                          fmt::format("kv: {} {} blocks…", plan.op == KvOp::load ? "load" : "dump", plan.blocks));
  step.expect_bytes(plan.blocks * plan.block_bytes * plan.passes);  // every block once a pass
  std::vector<CaseResult> cases{run_kv(plan, ctx.backend, ctx.progress, ctx.stop)};
  ctx.emit(cases.back());
  return cases;
}

}  // namespace xb
