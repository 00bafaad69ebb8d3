#include "jobs/p2p/p2p_copy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "backends/device_pattern.hpp"
#include "core/pattern.hpp"
#include "runtime/timed_loop.hpp"

namespace xb {
namespace {

// The events of one window, made once per case and reused (a window ends fully synchronized).
struct WindowEvents {
  std::unique_ptr<Event> start;              // on a
  std::vector<std::unique_ptr<Event>> ends;  // on a: execution k done (both directions)
  std::vector<std::unique_ptr<Event>> peer;  // on b: b's copy k done (bidirectional)
  // Holds a's stream until the whole window is queued (b's waits on a's start): the executions run
  // back to back on the device, whatever enqueuing costs. Null where the backend has no gate.
  // Last member: destroyed (opened) first, so no stream is left held.
  std::unique_ptr<Gate> gate;

  WindowEvents(Device& a, Device& b, std::uint64_t window, bool bidirectional)
      : start(a.create_event()), gate(a.create_gate()) {
    for (std::uint64_t k = 0; k < window; ++k) {
      ends.push_back(a.create_event());
      if (bidirectional) peer.push_back(b.create_event());
    }
  }
};

// Queues `n` executions as one window: held at the gate until all of them are queued.
void queue_window(P2pDevice& a, P2pDevice& b, std::uint64_t size, bool bidirectional, std::uint64_t n,
                  WindowEvents& ev) {
  const CopyOp ab{b.dst->data(), a.src->data(), size};
  const CopyOp ba{a.dst->data(), b.src->data(), size};
  Stream& sa = *a.stream;
  Stream& sb = *b.stream;
  if (ev.gate) {
    ev.gate->close();
    ev.gate->hold(sa);
  }
  sa.record(*ev.start);
  if (bidirectional) sb.wait(*ev.start);
  for (std::uint64_t k = 0; k < n; ++k) {
    sa.copy(ab);
    if (bidirectional) {
      sb.copy(ba);
      sb.record(*ev.peer[k]);
      sa.wait(*ev.peer[k]);
    }
    sa.record(*ev.ends[k]);
    // b's next copy starts with a's: execution k+1 begins when execution k has ended on both.
    if (bidirectional) sb.wait(*ev.ends[k]);
  }
  if (ev.gate) ev.gate->open();
}

// Waits for the window's `n` executions; appends their elapsed times when `out`.
void drain_window(P2pDevice& a, P2pDevice& b, bool bidirectional, std::uint64_t n, WindowEvents& ev,
                  ElapsedRecord* out) {
  a.stream->synchronize();
  if (bidirectional) b.stream->synchronize();
  if (ev.gate) ev.gate->confirm_held();
  if (out == nullptr) return;
  for (std::uint64_t k = 0; k < n; ++k) {
    out->add(a.device->elapsed_us(k == 0 ? *ev.start : *ev.ends[k - 1], *ev.ends[k]));
  }
}

}  // namespace

P2pDevice P2pDevice::open(Backend& backend, int index, std::uint64_t size, const std::string& engine) {
  P2pDevice d;
  d.index = index;
  d.device = backend.open_device(index);
  d.src = d.device->allocate(size);
  d.dst = d.device->allocate(size);
  d.stream = d.device->create_stream(engine);
  d.setup = d.device->create_stream(setup_engine(backend.capabilities()));
  d.event_timing = backend.capabilities().event_timing;
  return d;
}

Support connect_p2p(P2pDevice& a, P2pDevice& b, bool bidirectional) {
  for (auto [from, to] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    if (from == &b && !bidirectional) break;
    const Support s = from->device->peer_access(*to->device);
    if (!s.ok) {
      return Support::no(fmt::format("device {} cannot reach device {}: {}", from->index, to->index, s.reason));
    }
    from->device->enable_peer_access(*to->device);
  }
  return Support::yes();
}

ElapsedRecord run_p2p_executions(P2pDevice& a, P2pDevice& b, std::uint64_t size, bool bidirectional,
                                 std::uint64_t warmup, std::uint64_t executions, ProgressLine* progress,
                                 const std::stop_token& interrupt) {
  MovedBytes moved(progress);
  const std::uint64_t per_execution = bidirectional ? 2 * size : size;
  const std::uint64_t window = std::max<std::uint64_t>(std::min<std::uint64_t>(std::max(executions, warmup), kP2pWindow), 1);
  const auto windows_of = [&](std::uint64_t count) { return (count + window - 1) / window; };
  WindowEvents ev(*a.device, *b.device, window, bidirectional);
  const bool events = a.event_timing;
  ElapsedRecord record(!events ? "host clock: each window from its first enqueue until drained, over its executions"
                       : ev.gate ? "device events, gated (the window queued whole first)"
                                 : "device events, ungated");
  // The one timed loop, an iteration a window: warm-up windows first, then the timed ones.
  const std::uint64_t warmup_windows = windows_of(warmup);
  std::uint64_t at = 0;  // the window under way, counted over warm-up and timed ones
  std::uint64_t n = 0;   // its executions (the last of a phase may be short)
  run_timed_loop(
      {.warmup = warmup_windows, .iterations = windows_of(executions), .keep_samples = false, .submit_time = false,
       .stop = interrupt},
      nullptr,
      [&] {
        const bool warm = at < warmup_windows;
        const std::uint64_t first = (warm ? at : at - warmup_windows) * window;
        n = std::min(window, (warm ? warmup : executions) - first);
        queue_window(a, b, size, bidirectional, n, ev);
      },
      [&] { drain_window(a, b, bidirectional, n, ev, events && at >= warmup_windows ? &record : nullptr); }, nullptr,
      [&](const IterationTimes& t) {
        if (!events && !t.warmup) {
          for (std::uint64_t k = 0; k < n; ++k) record.add(t.complete_us / static_cast<double>(n));
        }
        moved.add(n * per_execution);
        ++at;
      });
  return record;
}

void fill_p2p_source(P2pDevice& d, std::uint64_t size, std::uint64_t seed) {
  fill_device_pattern(*d.device, *d.setup, static_cast<std::byte*>(d.src->data()), size, seed);
}

void check_p2p_destination(P2pDevice& d, const P2pDevice& from, std::uint64_t size, std::uint64_t seed,
                           const std::string& backend) {
  const auto* dst = static_cast<const std::byte*>(d.dst->data());
  if (const auto bad = find_device_pattern_mismatch(*d.device, *d.setup, dst, size, seed)) {
    throw std::runtime_error(fmt::format(
        "verify failed: {0}::device::{1} -> {0}::device::{2}: byte at offset {3} of the destination is 0x{4:02x}, "
        "expected 0x{5:02x}",
        backend, from.index, d.index, bad->offset, static_cast<unsigned>(bad->found), pattern_byte(seed, bad->offset)));
  }
}

}  // namespace xb
