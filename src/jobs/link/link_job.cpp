#include "jobs/link/link_job.hpp"

#include <fmt/format.h>

#include <memory>
#include <stdexcept>
#include <optional>

#include "core/size.hpp"
#include "core/stop.hpp"
#include "jobs/endpoint/device_path.hpp"
#include "jobs/endpoint/endpoint_memory.hpp"
#include "jobs/link/link_check.hpp"
#include "jobs/link/link_config.hpp"
#include "jobs/link/link_server.hpp"
#include "runtime/timed_loop.hpp"
#include "transport/pingpong.hpp"
#include "transport/session.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

// What "cuda" meant in this run, for the result: the preferred backend's device memory, which on a
// machine without a GPU backend is a cpu backend arena (host memory), and the result must say so.
std::string cuda_meaning(const Backend& backend) {
  if (backend.name() == "cpu") {
    return "device memory of the cpu backend: a host memory arena (no GPU backend here), moved like a GPU's";
  }
  return fmt::format("device memory of the {} backend", backend.name());
}

// The two kinds of latency a link measures, each named and worded apart so no one reads one as the
// other: put + flush completion, and half a ping-pong's round trip (ucx_perftest's put_lat).
struct LatencyKind {
  bool pingpong;         // config.pingpong, and the case's own name (compare never matches the two)
  const char* answered;  // the title's words for the peer's part
  const char* series;    // the series' name
  const char* prefix;    // its metrics' names: PREFIX_avg, _min, _max
  const char* avg;       // what each metric is
  const char* min;
  const char* max;
  const char* bandwidth;
  const char* counted;   // the unit of `iterations`
  const char* iterations;
  const char* transfer;  // the config's transfer and timing
  const char* timing;
};

constexpr LatencyKind kPutFlush{
    .pingpong = false,
    .answered = "",
    .series = "transfer",
    .prefix = "latency",
    .avg = "mean over iterations of one transfer's time (put + flush)",
    .min = "fastest transfer (put + flush)",
    .max = "slowest transfer (put + flush)",
    .bandwidth = "size * 8 / latency_avg / 1000: decimal gigabits per second (sharp_coll_test's Avg BW)",
    .counted = "transfers",
    .iterations = "timed transfers of this size",
    .transfer = "put of size bytes from src offset 0 to dst offset 0, then flush (complete at the peer)",
    .timing = "host clock: put until the flush returns (the transport completes on the host)"};

constexpr LatencyKind kPingPong{
    .pingpong = true,
    .answered = ", answered by the peer's put of as many",
    .series = "half_rtt",
    .prefix = "half_rtt",
    .avg = "mean over rounds of half the round trip (put, answered by the peer's put)",
    .min = "fastest round's half round trip",
    .max = "slowest round's half round trip",
    .bandwidth = "size * 8 / half_rtt_avg / 1000: decimal gigabits per second (ucx_perftest's put_lat bandwidth)",
    .counted = "rounds",
    .iterations = "timed rounds of this size",
    .transfer = "put of size bytes from src offset 0 to dst offset 0, its last byte the round's number; the peer, "
                "seeing it, puts as many bytes back into this side's host memory from a buffer of its own (the first round's "
                "bytes, each round's number last; no flush inside a round)",
    .timing = "host clock: put until the answer's last byte shows the round's number, halved (half the round trip)"};

constexpr const char* kCheckMethod =
    "src filled with the pattern of this size's seed before the transfers; the peer verified dst [0, size) "
    "against it after them";

struct Sweep {
  const LinkPlan& plan;
  Backend& backend;
  Transport& transport;
  ClientSession& session;
  EndpointMemory& src;
  LocalRegion& local;  // src's registration, or the staging memory's when src is staged
  bool staged;         // each transfer first copies src into the staging memory (device path)
  std::string device_path;  // for the config, with cuda source memory: registered or why staged
  PeerRegion& dst;
  std::string peer;  // for the config: the server's address, or what the loopback is
  ProgressLine* progress;  // hears the bytes as they move (the live rate); may be null
  std::stop_token stop;    // the run is ending on a signal: the loop stops
  EndpointMemory* reply_memory;  // --pingpong: this side's host memory the peer puts back into
  LocalRegion* reply;            // its registration (null without --pingpong)

  // The frame both kinds share: src filled with this size's pattern (link_check_seed) when checked,
  // then the timed loop, each iteration's bytes heard by the live rate.
  template <typename Submit, typename Wait>
  TimedLoopSamples timed(std::uint64_t bytes, bool back_to_back, Submit submit, Wait wait) {
    if (plan.check) src.fill(0, bytes, link_check_seed(bytes));
    MovedBytes moved(progress);
    TimedLoopSamples times = run_timed_loop({.warmup = plan.warmup, .iterations = plan.iterations,
                                             .submit_time = false, .stop = stop, .back_to_back = back_to_back},
                                            nullptr, submit, wait, nullptr, [&](const IterationTimes&) { moved.add(bytes); });
    moved.flush();
    return times;
  }

  // One transfer: a queued put (after staging device memory the transport cannot register), then a
  // flush that returns once the data is visible at the peer, timed together on the host clock.
  CaseResult measure(std::uint64_t bytes) {
    Endpoint& ep = session.endpoint();
    TimedLoopSamples times = timed(
        bytes, false,
        [&] {
          if (staged) src.copy_out(0, local.data(), bytes);
          ep.put(local, 0, *dst.remote, 0, bytes);
        },
        [&] { ep.flush(plan.wait); });
    if (plan.check) verify_link_data(session, dst, bytes, link_check_seed(bytes));
    return result(bytes, kPutFlush, std::move(times.complete_us));
  }

  // One round (--pingpong): the put of `bytes` with the round's sequence number in its last byte,
  // until the peer's put of the same bytes shows that number in this side's reply memory; half the
  // round trip is the figure (ucx_perftest's put_lat, ib_write_lat). No flush inside a round; back
  // to back, one clock read a round (ucx_perftest's too), where a read is a fifth of one.
  CaseResult measure_pingpong(std::uint64_t bytes) {
    Endpoint& ep = session.endpoint();
    write_last_byte(reply->data(), bytes, 0);
    session.start_answering(dst, *reply, bytes);
    std::uint64_t round = 0;
    TimedLoopSamples times = timed(
        bytes, true,
        [&] {
          write_last_byte(local.data(), bytes, pingpong_sequence(round));
          ep.put(local, 0, *dst.remote, 0, bytes);
        },
        [&] {
          await_pingpong_answer(transport, reply->data(), bytes, pingpong_sequence(round), plan.wait, peer, round);
          ++round;
        });
    session.end_answering();
    ep.flush(plan.wait);
    // The last byte carried sequence numbers; the rest is the pattern at both ends.
    if (plan.check && bytes > 1) {
      const std::uint64_t seed = link_check_seed(bytes);
      verify_link_data(session, dst, bytes - 1, seed);
      if (const auto bad = reply_memory->verify(0, bytes - 1, seed)) {
        throw std::runtime_error(fmt::format(
            "link --check --pingpong: the peer's answer of {} bytes differs from what was put, first at byte offset {}",
            bytes, *bad));
      }
    }
    for (double& us : times.complete_us) us /= 2;
    return result(bytes, kPingPong, std::move(times.complete_us));
  }

  CaseResult result(std::uint64_t bytes, const LatencyKind& kind, std::vector<double> us) const {
    const std::string memory = fmt::format("{}:{}", link_memory_name(plan.src), link_memory_name(plan.dst));
    const TransportInfo info = transport.info();
    Series latency = make_series(kind.series, "us", std::move(us));
    CaseResult r;
    r.job = "link";
    r.name = fmt::format("link_{}{}_{}_{}", kind.pingpong ? "pingpong_" : "", link_memory_name(plan.src),
                         link_memory_name(plan.dst), bytes);
    r.title = fmt::format("put {} B of {} memory into the peer's {} memory over {}{}, one at a time: {} timed after {} "
                          "warm-up(s){}",
                          bytes, link_memory_name(plan.src), link_memory_name(plan.dst), info.name,
                          kind.answered, plan.iterations,
                          plan.warmup, plan.check ? ", data checked" : "");
    r.labels = {{"size", std::to_string(bytes)}, {"memory", memory}, {"transport", info.name}};
    r.config = LinkConfig{
        .size = bytes, .sweep = {plan.min_bytes, plan.max_bytes, plan.step}, .iterations = plan.iterations,
        .warmup = plan.warmup, .memory = memory, .src = {std::string(link_memory_name(plan.src)), src.description()},
        .dst = {std::string(link_memory_name(plan.dst)), dst.description}, .cuda = cuda_meaning(backend),
        .backend = std::string(backend.name()), .device = plan.device, .peer = peer,
        .server = session.server_description(), .transport = info, .transfer = kind.transfer, .timing = kind.timing,
        .check = plan.check, .device_path = device_path.empty() ? std::nullopt : std::optional(device_path),
        .check_method = plan.check ? std::optional<std::string>(kCheckMethod) : std::nullopt,
        .pingpong = kind.pingpong ? std::optional(true) : std::nullopt};
    const Summary& s = latency.summary;
    const std::string prefix = kind.prefix;
    r.metrics = {
        {prefix + "_avg", s.avg, "us", kind.avg},
        {prefix + "_min", s.min, "us", kind.min},
        {prefix + "_max", s.max, "us", kind.max},
        {"bandwidth", link_bandwidth_gbps(bytes, s.avg), "Gb/s", kind.bandwidth},
        {"iterations", static_cast<double>(plan.iterations), kind.counted, kind.iterations},
    };
    r.series.push_back(std::move(latency));
    return r;
  }
};

}  // namespace

std::vector<CaseResult> run(const LinkPlan& plan_in, JobContext& ctx) {
  Backend& backend = ctx.need_backend("link");
  LinkPlan plan = plan_in;
  if (plan.transport.empty()) plan.transport = default_transport_name();
  const ProgressStep step(ctx.progress, fmt::format("link: {} to {} over {}…", format_size(plan.min_bytes),
                                                    format_size(plan.max_bytes), plan.transport));
  validate_link_plan(plan);
  const std::vector<std::uint64_t> sizes = link_sizes(plan);
  std::uint64_t work = 0;  // every size's transfers, warm-ups included
  for (const std::uint64_t bytes : sizes) work += (plan.warmup + plan.iterations) * bytes;
  step.expect_bytes(work);

  // Declaration order is teardown order in reverse: the peer's region goes before the session
  // (its endpoint), the session before the loopback server is joined (so a failing run's server sees
  // its client leave and ends), the registration before the memory.
  std::unique_ptr<Transport> transport = make_transport(plan.transport);
  std::unique_ptr<Device> device = backend.open_device(plan.device);
  std::unique_ptr<EndpointMemory> src = EndpointMemory::make(backend, *device, plan.src, plan.max_bytes, *transport);
  // Device memory goes to the transport only where it can register that memory type; otherwise
  // each transfer copies it into host memory first (the result says so: device_path).
  std::optional<DevicePath> path;
  if (plan.src == RegionPlace::device) {
    path = choose_device_path({backend.name(), backend.capabilities().device_memory_in_host_ram, transport->name(),
                               transport->device_memory_types()});
  }
  std::unique_ptr<EndpointMemory> staging;
  if (path && !path->registered) {
    staging = EndpointMemory::make(backend, *device, RegionPlace::host, plan.max_bytes, *transport);
  }
  EndpointMemory& wire = staging ? *staging : *src;
  std::unique_ptr<LocalRegion> owned;
  LocalRegion& local = transport_registration(wire, *transport, owned);
  // --pingpong: host memory of this side the peer puts its answers into (declared before the
  // session: a peer still answering on a failing run never puts into memory already gone).
  std::unique_ptr<EndpointMemory> reply_memory;
  std::unique_ptr<LocalRegion> reply_owned;
  LocalRegion* reply = nullptr;
  if (plan.pingpong) {
    reply_memory = EndpointMemory::make(backend, *device, RegionPlace::host, plan.max_bytes, *transport);
    reply = &transport_registration(*reply_memory, *transport, reply_owned);
  }
  std::optional<PeerServerThread> loopback;
  SocketAddress control;
  std::string peer;
  if (plan.peer) {
    control = *plan.peer;
    peer = plan.peer->to_string();
  } else {
    loopback.emplace("127.0.0.1", plan.transport, plan.token, plan.wait, plan.device, backend, exactly_the_plan(plan.max_bytes));
    control = loopback->control();
    peer = fmt::format("loopback: a server thread of this process on {}", control.to_string());
  }
  SessionOptions options;
  options.token = plan.token;
  options.wait = plan.wait;
  ClientSession session(*transport, control, options);
  PeerRegion dst = session.expose(plan.max_bytes, plan.dst);

  Sweep sweep{plan, backend, *transport, session, *src, local, staging != nullptr, path ? path->text : "", dst, peer, ctx.progress,
              ctx.stop, reply_memory.get(), reply};
  std::vector<CaseResult> results;
  for (const std::uint64_t bytes : sizes) {
    results.push_back(plan.pingpong ? sweep.measure_pingpong(bytes) : sweep.measure(bytes));
    ctx.emit(results.back());
  }
  session.finish();
  if (loopback) loopback->join();
  return results;
}

}  // namespace xb
