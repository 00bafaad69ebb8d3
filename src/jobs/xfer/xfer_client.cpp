// The client side of the xfer job: the measurement loop over block sizes.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/size.hpp"
#include "jobs/endpoint/device_path.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "jobs/xfer/xfer_sides.hpp"
#include "jobs/xfer/xfer_metrics.hpp"
#include "jobs/xfer/xfer_mover.hpp"
#include "runtime/timed_loop.hpp"
#include "transport/session.hpp"

namespace xb {
namespace {

// Where the first wrong byte is, in words a user can act on.
std::string mismatch_text(const XferPlan& plan, std::uint64_t block, std::uint64_t offset, std::string_view where) {
  return fmt::format("verify failed: {} {} with {} blocks: {} differs from the pattern at byte {} (block {}, byte {} in it)",
                     to_string(plan.op), to_string(plan.mode), format_size(block), where, offset, offset / block,
                     offset % block);
}

// One block size's passes, on the client's one mover, session and memory.
struct BlockSizeRun {
  const XferPlan& plan;
  XferMover& mover;
  ClientSession& session;
  const PeerRegion& region;
  EndpointMemory& local;
  ProgressLine* progress;
  std::stop_token interrupt;

  XferMeasurement run(std::uint64_t block, std::uint64_t seed) {
    XferMeasurement m;
    m.block = block;
    m.transfers = xfer_transfer_count(plan.total, block);
    MovedBytes moved(progress);
    // The warm-up passes, then with --latency each transfer timed alone (histogram only: a pass may be
    // millions), on one timed loop; move() returns with the data at the peer: nothing left to wait on.
    std::uint64_t next = 0;
    run_timed_loop(
        {.warmup = plan.warmup,
         .iterations = plan.latency ? m.transfers : 0,
         .keep_samples = false,
         .submit_time = false,
         .stop = interrupt},
        nullptr,
        [&] {
          const bool warm = next < plan.warmup;  // a whole pass, else transfer next - warmup alone
          mover.move(block, warm ? 0 : next - plan.warmup, warm ? m.transfers : 1);
          ++next;
        },
        [] {}, nullptr,
        [&](const IterationTimes& t) {
          if (!t.warmup) m.latency.record(static_cast<std::uint64_t>(t.complete_us * 1e3 + 0.5));
          moved.add(t.warmup ? block * m.transfers : block);
        });
    // The pattern is laid down after the untimed passes, so what is checked is what the timed
    // passes moved; the seed differs per block size, so a block size that moved nothing fails.
    const std::uint64_t bytes = block * m.transfers;
    const bool write = plan.op == XferOp::write;
    if (plan.verify && write) local.fill(0, bytes, seed);
    if (plan.verify && !write) session.fill(region, 0, bytes, seed);
    m.time_us = run_timed_loop(
                    {.warmup = 0, .iterations = plan.iters, .submit_time = false, .stop = interrupt}, nullptr,
                    [&] { mover.move(block, 0, m.transfers); }, [] {}, nullptr,
                    [&](const IterationTimes&) { moved.add(block * m.transfers); })
                    .complete_us;
    moved.flush();
    if (plan.verify) {
      if (const auto at = write ? session.verify(region, 0, bytes, seed) : local.verify(0, bytes, seed)) {
        const std::string where = write ? "the server's " + region.description : "the client's " + local.description();
        throw std::runtime_error(mismatch_text(plan, block, *at, where));
      }
      m.verified = true;
    }
    return m;
  }
};

}  // namespace

std::vector<CaseResult> run_xfer_client(const XferPlan& plan, Backend& backend, const CaseSink& on_case,
                                        ProgressLine* progress, const std::stop_token& interrupt) {
  validate_xfer_plan(plan);
  // All local things first: a memory failure never leaves a server waiting on a half-started client.
  std::unique_ptr<Device> device = backend.open_device(plan.device);
  std::unique_ptr<Transport> transport = make_transport(plan.transport);
  std::unique_ptr<EndpointMemory> local = EndpointMemory::make(backend, *device, plan.mode.local, plan.total, *transport);

  SessionOptions options = xfer_session_options(plan);
  options.stop = interrupt;  // a client started before its server waits for it: Ctrl-C ends the wait
  ClientSession session(*transport, plan.control, options);
  const PeerRegion region = session.expose(plan.total, plan.mode.remote);
  const XferLink link{*transport, session.endpoint(), *region.remote, *local, plan.op, plan.wait};
  const std::uint64_t largest = *std::max_element(plan.blocks.begin(), plan.blocks.end());
  const std::string engine = backend.capabilities().engines.empty() ? "" : backend.capabilities().engines.front();
  // Device memory goes to the transport only where it can register that memory type; otherwise
  // it is staged through the pool, and the result says so (device_path).
  std::optional<DevicePath> device_path;
  if (plan.mode.local == RegionPlace::device) {
    device_path = choose_device_path({backend.name(), backend.capabilities().device_memory_in_host_ram,
                                      transport->name(), transport->device_memory_types()});
    if (plan.pool) device_path = DevicePath{false, "staged through the pinned pool: --pool asked for it"};
  }
  const bool pool = plan.pool || (device_path && !device_path->registered);
  // The pool is the transport's memory unless the stream copies device memory of a GPU, which
  // needs host memory its runtime pinned to copy asynchronously.
  const bool transport_pool =
      plan.mode.local != RegionPlace::device || backend.capabilities().device_memory_in_host_ram;
  std::unique_ptr<XferMover> mover =
      pool ? make_pool_mover(link, *device, engine, plan.pool_chunk, largest, transport_pool) : make_direct_mover(link);
  if (region.staged) mover = make_staged_server_mover(std::move(mover), session, region, plan.op);

  XferSetting setting{.transport = {}, .peer = plan.control.to_string(), .server = session.server_description(),
                      .remote_memory = region.description, .local_memory = local->description(),
                      .backend = std::string(backend.name()), .device = plan.device, .device_name = device->info().name,
                      .mover = mover->describe(), .device_path = device_path ? device_path->text : ""};

  BlockSizeRun runner{plan, *mover, session, region, *local, progress, interrupt};
  std::vector<CaseResult> cases;
  for (std::size_t k = 0; k < plan.blocks.size(); ++k) {
    XferMeasurement m;
    try {
      m = runner.run(plan.blocks[k], plan.seed + k);
    } catch (const TransportError& e) {
      // Say which run broke: the transport's message names the peer and the call.
      throw TransportError(fmt::format("{} {} with {} blocks, server {}: {}", to_string(plan.op), to_string(plan.mode),
                                       format_size(plan.blocks[k]), setting.peer, e.what()));
    }
    setting.transport = transport->info();  // lanes are known once data moved
    cases.push_back(xfer_case_result(plan, setting, m));
    if (on_case) on_case(cases.back());
  }
  session.finish();
  return cases;
}

}  // namespace xb
