#include "jobs/copy/copy_job.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "backends/device_pattern.hpp"
#include "backends/stream_clock.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/json_record.hpp"
#include "core/plan_error.hpp"
#include "core/machine.hpp"
#include "core/pattern.hpp"
#include "core/size.hpp"
#include "jobs/copy/copy_config.hpp"
#include "jobs/copy/copy_engine_choice.hpp"
#include "jobs/copy/copy_layout.hpp"
#include "runtime/fork_launcher.hpp"
#include "runtime/forked_moved_bytes.hpp"
#include "runtime/rank_values.hpp"
#include "runtime/timed_loop.hpp"

namespace xb {

namespace {
constexpr NamedValue<CopyDirection> kCopyDirectionNames[] = {
    {CopyDirection::h2d, "h2d"}, {CopyDirection::d2h, "d2h"}, {CopyDirection::d2d, "d2d"}, {CopyDirection::h2h, "h2h"}};
}  // namespace

std::string_view to_string(CopyDirection d) { return name_of(kCopyDirectionNames, d); }
std::string_view to_string(CopyTopology t) { return t == CopyTopology::shared ? "shared" : "per-device"; }

namespace {

// The limits past which no machine has the memory anyway; they keep every product far from overflow.
constexpr std::uint64_t kMaxBlocks = 1u << 24;
constexpr std::uint64_t kMaxIterations = 100'000'000;
constexpr int kMaxDevices = 1024;
constexpr int kMaxStreams = 256;

bool host_source(CopyDirection d) { return d == CopyDirection::h2d || d == CopyDirection::h2h; }
bool host_destination(CopyDirection d) { return d == CopyDirection::d2h || d == CopyDirection::h2h; }

// The verification seed of a rank's source data: per-device buffers differ from device to device,
// so a copy that picked up another device's buffer is caught; the shared buffer has one seed.
std::uint64_t rank_seed(const CopyPlan& plan, int rank) {
  return plan.topology == CopyTopology::shared ? plan.seed : plan.seed + static_cast<std::uint64_t>(rank);
}

// A host-side buffer of a rank: from the device's allocator when pinned (cudaHostAlloc on a GPU), else
// a host memory kind registered with the device, but for pageable memory (unregistered is its point).
struct HostSide {
  std::unique_ptr<Allocation> allocation;
  std::unique_ptr<HostBuffer> buffer;
  std::unique_ptr<Registration> registration;
  std::byte* data = nullptr;
};

HostSide make_host_side(Device& dev, HostMemoryKind kind, std::size_t bytes, const CopyPlan& plan,
                        std::uint64_t seed) {
  HostSide h;
  if (kind == HostMemoryKind::pinned) {
    h.allocation = dev.allocate_host(bytes, true);
    h.data = static_cast<std::byte*>(h.allocation->data());
    return h;
  }
  HostBufferOptions options;
  options.odirect_dir = plan.odirect_dir;
  options.odirect_seed = seed;
  h.buffer = make_host_buffer(kind, bytes, options);
  h.data = h.buffer->data();
  if (kind != HostMemoryKind::pageable) h.registration = dev.register_host(h.data, bytes);
  return h;
}

// What one rank hands back to the root: its device, how its batches went out, and its samples
// (TimedLoopSamples' submit_us, complete_us, device_us and device_method).
struct CopyRankOutput {
  std::string device;
  DeviceInfo info;
  std::string submission;
  std::vector<double> submit, copy, device_time;
  std::string device_timing;
};
XB_JSON_RECORD(CopyRankOutput, device, info, submission, submit, copy, device_time, device_timing)

// `progress` (may be null) hears the bytes each iteration moved, warm-ups included: the live rate.
CopyRankOutput run_rank(const CopyPlan& plan, Backend& backend, Runtime& rt, HostBuffer* shared_host,
                        ProgressLine* progress) {
  const int rank = rt.rank();
  auto dev = backend.open_device(plan.first_device + rank);
  const std::size_t bytes = plan.block_bytes * plan.blocks;
  const std::uint64_t seed = rank_seed(plan, rank);
  const HostMemoryKind kind = plan.host_kind;

  // Source and destination of this rank, by direction: the shared host buffer, a host side of the
  // rank's own, or device memory.
  HostSide host_src, host_dst;
  std::unique_ptr<Allocation> dev_src, dev_dst;
  std::unique_ptr<Registration> shared_registration;
  const auto side = [&](bool host, bool use_shared, HostMemoryKind k, std::uint64_t s, HostSide& h,
                        std::unique_ptr<Allocation>& d) -> std::byte* {
    if (host && use_shared) {
      shared_registration = dev->register_host(shared_host->data(), bytes);
      return shared_host->data();
    }
    if (host) {
      h = make_host_side(*dev, k, bytes, plan, s);
      return h.data;
    }
    d = dev->allocate(bytes);
    return static_cast<std::byte*>(d->data());
  };
  const bool shared = plan.topology == CopyTopology::shared;
  std::byte* const src = side(host_source(plan.direction), shared, kind, seed, host_src, dev_src);
  // ~seed: an O_DIRECT destination arrives filled from its file, and must not already hold the
  // pattern that verification expects there.
  std::byte* const dst = side(host_destination(plan.direction), shared && !host_source(plan.direction),
                              host_source(plan.direction) ? HostMemoryKind::pinned : kind, ~seed, host_dst, dev_dst);

  // The source's content: the odirect kind arrived from its file with this seed's pattern, and the
  // shared buffer was filled by the parent; everything else is filled here.
  const bool prefilled = (shared_host != nullptr && src == shared_host->data()) ||
                         (host_source(plan.direction) && !shared && kind == HostMemoryKind::odirect);
  // Device memory the CPU cannot address (a GPU's) is filled and checked through a stream.
  const bool device_in_host_ram = backend.capabilities().device_memory_in_host_ram;
  const bool device_src = !host_source(plan.direction) && !device_in_host_ram;
  const bool device_dst = !host_destination(plan.direction) && !device_in_host_ram;
  // Filled and checked through the plainest engine, never the one under test: an engine that gets
  // copies wrong in a way of its own would otherwise fill and check its own work.
  const std::string& setup = setup_engine(backend.capabilities());
  if (!prefilled) {
    if (device_src) {
      fill_device_pattern(*dev, *dev->create_stream(setup), src, bytes, seed);
    } else {
      fill_pattern({src, bytes}, seed, 0);
    }
  }

  std::vector<std::unique_ptr<Stream>> streams;
  for (int s = 0; s < plan.streams; ++s) streams.push_back(dev->create_stream(plan.engine));
  const auto per_stream = layout_copies(dst, src, plan.block_bytes, plan.blocks, plan.streams, plan.fragments);
  const auto in_order = submission_order(dst, src, plan.block_bytes, plan.blocks, plan.streams, plan.fragments);

  const std::string device_name = dev->info().name;
  // The device's own time of each iteration beside the host clock's, where it has events. Not
  // gated: the printed figure is the host clock's, from the first enqueue until every stream has
  // drained (what dev-sandbox measures), and holding the streams until everything is queued would
  // add the enqueuing to it (docs/method.md).
  std::unique_ptr<StreamClock> clock;
  if (backend.capabilities().event_timing) {
    std::vector<Stream*> timed;
    for (auto& s : streams) timed.push_back(s.get());
    clock = std::make_unique<StreamClock>(*dev, timed, false);
  }
  MovedBytes moved(progress);
  const TimedLoopSamples samples = run_timed_loop(
      {.warmup = plan.warmup, .iterations = plan.iterations}, &rt,
      [&] {
        if (plan.batch) {
          for (std::size_t s = 0; s < streams.size(); ++s) streams[s]->copy_batch(per_stream[s]);
        } else {
          for (const auto& [s, op] : in_order) streams[static_cast<std::size_t>(s)]->copy(op);
        }
        // What a stream holds back (the CUDA batch engine) goes out now, every stream's before any
        // wait: synchronizing one holding stream after another would run them one after another.
        for (auto& s : streams) s->flush();
      },
      [&] {
        for (auto& s : streams) s->synchronize();
      },
      clock.get(), [&](const IterationTimes&) { moved.add(bytes); });
  moved.flush();

  if (plan.verify) {
    std::optional<DeviceMismatch> bad;
    if (device_dst) {
      bad = find_device_pattern_mismatch(*dev, *dev->create_stream(setup), dst, bytes, seed);
    } else if (auto at = find_pattern_mismatch({dst, bytes}, seed, 0)) {
      bad = DeviceMismatch{*at, static_cast<std::uint8_t>(dst[*at])};
    }
    if (bad) {
      throw std::runtime_error(fmt::format(
          "verify failed on {}: destination byte at offset {} (block {}, offset {} in the block) is 0x{:02x}, "
          "expected 0x{:02x}",
          device_name, bad->offset, bad->offset / plan.block_bytes, bad->offset % plan.block_bytes,
          static_cast<unsigned>(bad->found), pattern_byte(seed, bad->offset)));
    }
  }
  return {device_name, dev->info(), streams.front()->submission(), samples.submit_us, samples.complete_us,
          samples.device_us, samples.device_method};
}

std::string host_location(const Backend& backend, const CopyPlan& plan, bool source) {
  if (plan.topology == CopyTopology::shared && (source || !host_source(plan.direction))) {
    return fmt::format("{}::shm::0", backend.name());
  }
  const HostMemoryKind kind = source || !host_source(plan.direction) ? plan.host_kind : HostMemoryKind::pinned;
  // dev-sandbox calls pinned host memory plainly "host"; the other kinds keep their names.
  const std::string_view name = kind == HostMemoryKind::pinned ? "host" : to_string(kind);
  return fmt::format("{}::{}::all", backend.name(), name);
}

std::string location(const Backend& backend, const CopyPlan& plan, bool source) {
  const bool host = source ? host_source(plan.direction) : host_destination(plan.direction);
  return host ? host_location(backend, plan, source) : fmt::format("{}::device::all", backend.name());
}

}  // namespace

CopyMemoryNeed copy_memory_need(const CopyPlan& plan) {
  const double per_side = static_cast<double>(plan.block_bytes) * static_cast<double>(plan.blocks);
  const double devices = plan.devices;
  CopyMemoryNeed need;
  const int host_sides = (host_source(plan.direction) ? 1 : 0) + (host_destination(plan.direction) ? 1 : 0);
  const int device_sides = 2 - host_sides;
  const bool shared = plan.topology == CopyTopology::shared;
  // The shared topology has one host buffer for all devices (its other side, for h2h, is per device).
  need.host_bytes = host_sides == 0 ? 0 : shared ? per_side * (1 + (host_sides - 1) * devices) : per_side * host_sides * devices;
  need.device_bytes = per_side * device_sides * devices;
  return need;
}

void validate_copy_plan(const CopyPlan& plan, Backend& backend) {
  if (plan.block_bytes == 0) {
    throw PlanError(fmt::format("{}: a block size must be at least 1 byte", flag("copy.size")));
  }
  require_in_range(plan.blocks, "copy.blocks", "a whole number", 1, kMaxBlocks);
  require_in_range(plan.iterations, "copy.iterations", "a whole number", 1, kMaxIterations);
  require_in_range(plan.streams, "copy.streams", "a whole number", 1, kMaxStreams);
  // A backend that cannot run here (a CUDA module without a driver or GPU) is "not available", not
  // bad input: say why before anything else is checked against its device count.
  if (const Support s = backend.availability(); !s.ok) {
    throw Unavailable(fmt::format("the {} backend: {}", backend.name(), s.reason));
  }
  const Capabilities& caps = backend.capabilities();
  const int max_devices = caps.virtual_devices ? kMaxDevices : backend.device_count();
  const std::string limit = caps.virtual_devices ? "'s arena limit" : fmt::format(" has {} devices", max_devices);
  if (plan.devices < 1 || plan.devices > max_devices) {
    throw PlanError(fmt::format("{} {}: expected a device count from 1 to {} (the {} backend{})", flag("copy.devices"),
                                plan.devices, max_devices, backend.name(), limit));
  }
  if (plan.first_device < 0 || plan.first_device > max_devices - plan.devices) {
    throw PlanError(fmt::format("{} {}: expected a device from 0 to {} (the {} backend{})", flag("copy.first_device"),
                                plan.first_device, max_devices - plan.devices, backend.name(), limit));
  }
  if (plan.fragments > plan.block_bytes) {
    throw PlanError(fmt::format("{} {}: more fragments than bytes in a block ({})", flag("copy.fragments"),
                                plan.fragments, format_size(plan.block_bytes)));
  }
  require_in_range(plan.fragments, "copy.fragments", "a fragment count", 0, 65536);
  if (!plan.engine.empty() &&
      std::find(caps.engines.begin(), caps.engines.end(), plan.engine) == caps.engines.end()) {
    throw PlanError(fmt::format("{} {}: the {} backend's engines are {}", flag("copy.engine"), plan.engine,
                                backend.name(), fmt::join(caps.engines, ", ")));
  }
  const bool odirect_used = plan.topology == CopyTopology::per_device && plan.host_kind == HostMemoryKind::odirect &&
                            plan.direction != CopyDirection::d2d;
  std::error_code ec;
  if (odirect_used && !std::filesystem::is_directory(plan.odirect_dir, ec)) {
    throw PlanError(fmt::format("{} {}: not a directory (O_DIRECT backing files are made there)",
                                flag("copy.odirect_dir"), plan.odirect_dir.string()));
  }
  // Memory: checked now, before anything is allocated; on the cpu backend device memory is host RAM.
  const CopyMemoryNeed need = copy_memory_need(plan);
  const bool device_in_ram = caps.device_memory_in_host_ram;
  const double in_ram = need.host_bytes + (device_in_ram ? need.device_bytes : 0);
  const double available = static_cast<double>(available_memory_bytes());
  if (!fits_in_memory(in_ram, available)) {
    const auto human = [](double b) {
      return b >= static_cast<double>(kMaxSize) ? std::string("more than 1 PiB")
                                                : format_bytes_human(static_cast<std::uint64_t>(b));
    };
    throw MachineLimit(fmt::format(
        "{} {} x {} {} x {} {}: this run needs {} of memory (host side {}{}) but {} is available; lower {}, {} or {}",
        flag("copy.devices"), plan.devices, flag("copy.blocks"), plan.blocks, flag("copy.size"),
        format_size(plan.block_bytes), human(in_ram), human(need.host_bytes),
        device_in_ram ? fmt::format(", cpu device side {}", human(need.device_bytes)) : "", human(available),
        flag("copy.size"), flag("copy.blocks"), flag("copy.devices")));
  }
}

std::vector<Metric> copy_bandwidth_metrics(std::uint64_t block_bytes, std::uint64_t count, double copy_avg_us) {
  const double total = static_cast<double>(block_bytes) * static_cast<double>(count);
  const double seconds = copy_avg_us / 1e6;
  const double bytes_per_s = seconds > 0 ? total / seconds : 0.0;
  return {{"bandwidth", bytes_per_s / 1073741824.0, "GiB/s",
           "block_bytes * count / copy.avg, count = blocks * devices, GiB = 2^30 bytes"},
          {"bandwidth_decimal", bytes_per_s / 1e9, "GB/s", "block_bytes * count / copy.avg, GB = 10^9 bytes"}};
}

namespace {

CaseResult run_copy(const CopyPlan& plan_in, Backend& backend, Launcher& launcher, ProgressLine* progress) {
  CopyPlan plan = plan_in;
  std::optional<std::string> engine_choice;
  if (plan.engine.empty()) {
    const auto choice = choose_copy_engine(backend, plan.block_bytes, plan.blocks);
    plan.engine = choice ? choice->engine : backend.capabilities().engines.front();
    if (choice) engine_choice = choice->why;
  }
  if (plan.topology == CopyTopology::shared) plan.host_kind = HostMemoryKind::shm;
  const std::size_t bytes = plan.block_bytes * plan.blocks;

  // The shared topology's one host buffer, made before the fan-out so every process maps it.
  std::unique_ptr<HostBuffer> shared_host;
  if (plan.topology == CopyTopology::shared && plan.direction != CopyDirection::d2d) {
    shared_host = make_host_buffer(HostMemoryKind::shm, bytes);
    // Only as a source: as a destination (d2h) it must start without what verification expects.
    if (host_source(plan.direction)) fill_pattern(shared_host->bytes(), plan.seed, 0);
  }

  // The ranks are forked processes: their bytes reach the line through a shared counter.
  ForkedMovedBytes rate(progress);
  std::vector<CopyRankOutput> rank_outputs = run_ranks(
      launcher, [&](Runtime& rt) { return run_rank(plan, backend, rt, shared_host.get(), rate.for_ranks()); });

  CaseResult result;
  result.job = "copy";
  std::vector<double> submit(plan.iterations, 0.0), copy(plan.iterations, 0.0);
  std::vector<std::string> submissions;  // distinct, in rank order
  std::vector<DeviceInfo> device_info;
  std::string device_timing;
  for (std::size_t r = 0; r < rank_outputs.size(); ++r) {
    CopyRankOutput& out = rank_outputs[r];
    device_info.push_back(out.info);
    RankResult rr{.rank = static_cast<int>(r), .device = out.device, .series = {}};
    if (!out.submission.empty() && std::ranges::find(submissions, out.submission) == submissions.end()) {
      submissions.push_back(out.submission);
    }
    // The iteration of all devices lasts until the slowest is done: aggregate by the maximum.
    for (std::size_t i = 0; i < plan.iterations && i < out.submit.size() && i < out.copy.size(); ++i) {
      submit[i] = std::max(submit[i], out.submit[i]);
      copy[i] = std::max(copy[i], out.copy[i]);
    }
    rr.series.push_back(make_series("submit", "us", std::move(out.submit)));
    rr.series.push_back(make_series("copy", "us", std::move(out.copy)));
    // The device's own time of each iteration (its events), in the JSON only: the table prints the
    // host clock's figures as before.
    if (!out.device_time.empty()) {
      rr.series.push_back(make_series("device", "us", std::move(out.device_time)));
      device_timing = out.device_timing;
    }
    result.ranks.push_back(std::move(rr));
  }
  result.series.push_back(make_series("submit", "us", std::move(submit)));
  result.series.push_back(make_series("copy", "us", std::move(copy)));
  // plan.host_kind is shm for the shared topology (above).
  result.config = CopyConfig{
      .backend = std::string(backend.name()), .direction = std::string(to_string(plan.direction)),
      .host_memory = std::string(to_string(plan.host_kind)), .topology = std::string(to_string(plan.topology)),
      .engine = plan.engine, .engine_choice = std::move(engine_choice), .batch = plan.batch, .streams = plan.streams, .block_bytes = plan.block_bytes,
      .blocks = plan.blocks, .iterations = plan.iterations, .warmup = plan.warmup, .seed = plan.seed,
      .devices = plan.devices, .first_device = plan.first_device, .fragments = plan.fragments, .verify = plan.verify,
      // How batches really went out (the CUDA batch API, a graph, or one by one and why): a figure of the
      // batch engine means little without it. Absent where a backend has one way.
      .submission = submissions.empty() ? std::nullopt : std::optional(submissions),
      // Which clock each series is: a figure means little without it.
      .timing = {.submit = "host clock: first enqueue to the last enqueue's return",
                 .copy = "host clock: first enqueue until every stream has drained",
                 .device = device_timing.empty() ? std::nullopt
                                                 : std::optional(device_timing + " (per rank, in ranks[].series)")},
      .device_info = std::move(device_info),
      .device_memory_in_host_ram = backend.capabilities().device_memory_in_host_ram};

  const std::uint64_t count = plan.blocks * static_cast<std::uint64_t>(plan.devices);
  result.metrics = copy_bandwidth_metrics(plan.block_bytes, count, result.series[1].summary.avg);

  const std::string method = fmt::format("{}{}x{}", plan.engine, plan.batch ? "-batch-" : "-", plan.streams);
  result.labels = {{"from", location(backend, plan, true)},
                   {"to", location(backend, plan, false)},
                   {"method", method},
                   {"size", format_size(plan.block_bytes)},
                   {"count", std::to_string(count)}};
  result.name = fmt::format("{}_{}_{}_{}{}", to_string(plan.direction), to_string(plan.host_kind),
                            plan.topology == CopyTopology::shared ? "shared" : "per_device", plan.engine,
                            plan.batch ? "_batch" : "");
  result.title = fmt::format("copy {} -> {}, {} blocks of {} per device on {} device(s), {} on {} stream(s){}",
                             result.labels[0].second, result.labels[1].second, plan.blocks,
                             format_size(plan.block_bytes), plan.devices, plan.engine, plan.streams,
                             plan.batch ? " in batch submissions" : "");
  return result;
}

}  // namespace

std::vector<CaseResult> run(const CopyPlan& plan, JobContext& ctx) {
  Backend& backend = ctx.need_backend("copy");
  const ProgressStep step(ctx.progress, fmt::format("copy: {} on {} device(s), {} x {}, {} iterations…",
                                                    to_string(plan.direction), plan.devices, plan.blocks,
                                                    format_size(plan.block_bytes), plan.iterations));
  step.expect_bytes((plan.warmup + plan.iterations) * plan.block_bytes * plan.blocks *
                    static_cast<std::uint64_t>(plan.devices));
  std::optional<ForkLauncher> own;
  Launcher& launcher = ctx.launcher != nullptr ? *ctx.launcher : own.emplace(plan.devices);
  std::vector<CaseResult> cases{run_copy(plan, backend, launcher, ctx.progress)};
  ctx.emit(cases.back());
  return cases;
}

}  // namespace xb
