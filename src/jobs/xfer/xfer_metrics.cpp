#include "jobs/xfer/xfer_metrics.hpp"

#include <fmt/format.h>

#include "core/latency_metrics.hpp"
#include "core/size.hpp"
#include "jobs/xfer/xfer_config.hpp"

namespace xb {

double xfer_throughput_gib_per_s(std::uint64_t block, std::uint64_t transfers, double time_us) {
  if (time_us <= 0) return 0.0;
  return static_cast<double>(block) * static_cast<double>(transfers) / (time_us / 1e6) / 1073741824.0;
}

CaseResult xfer_case_result(const XferPlan& plan, const XferSetting& s, const XferMeasurement& m) {
  CaseResult r;
  r.job = "xfer";
  const std::string mode = to_string(plan.mode);
  const std::string op(to_string(plan.op));
  const std::string block = format_size(m.block);
  r.name = fmt::format("{}_{}_{}_{}{}", op, mode, block, plan.transport, plan.pool ? "_pool" : "");
  r.title = fmt::format("{} {} x {} blocks {} {} over {}{}", op, m.transfers, block,
                        plan.op == XferOp::write ? "into" : "from", s.peer, s.transport.name,
                        plan.pool ? " through the staging pool" : "");
  r.labels = {{"op", op},
              {"mode", mode},
              {"block", block},
              {"transport", s.transport.name},
              {"pool", plan.pool ? "yes" : "no"}};
  std::string timing = "host clock: each pass from queueing its first transfer to the completion of all";
  if (plan.latency) timing += "; the latency pass: each transfer queued and completed alone";
  r.config = XferClientConfig{
      .peer = s.peer, .op = op, .mode = mode, .local_place = to_string(plan.mode.local),
      .remote_place = to_string(plan.mode.remote), .block = m.block, .total = plan.total, .transfers = m.transfers,
      .iters = plan.iters, .warmup = plan.warmup, .seed = plan.seed, .latency_pass = plan.latency,
      .verify = plan.verify, .verified = m.verified, .pool = plan.pool, .wait_ms = plan.wait.count(),
      .transport = s.transport, .server = s.server, .remote_memory = s.remote_memory, .local_memory = s.local_memory,
      .backend = s.backend, .device_name = s.device_name, .device = s.device, .mover = s.mover, .timing = timing,
      .device_path = s.device_path.empty() ? std::nullopt : std::optional(s.device_path), .server_index = {},
      .servers = {}};

  r.series.push_back(make_series("time", "us", m.time_us));
  const double avg_us = r.series.back().summary.avg;
  const double bytes = static_cast<double>(m.block) * static_cast<double>(m.transfers);
  r.metrics.push_back({"transfers", static_cast<double>(m.transfers), "transfers", "total / block (whole blocks)"});
  r.metrics.push_back({"bytes", bytes, "B", "block * transfers, per timed pass"});
  r.metrics.push_back({"time_cost", avg_us, "us",
                       "time.avg: from queueing the first transfer to the completion of all (one flush)"});
  r.metrics.push_back({"throughput", xfer_throughput_gib_per_s(m.block, m.transfers, avg_us), "GiB/s",
                       "block * transfers / time.avg (2^30 B/s, HIXL's throughput)"});
  // The median pass: what one slow pass (a page fault, a scheduler hiccup) does not move; the
  // spread is the time series' summary (min, max, p90, stddev).
  const double median_us = r.series.back().summary.p50;
  r.metrics.push_back({"time_cost_median", median_us, "us", "time.p50: the median timed pass"});
  r.metrics.push_back({"throughput_median", xfer_throughput_gib_per_s(m.block, m.transfers, median_us), "GiB/s",
                       "block * transfers / time.p50 (2^30 B/s)"});
  if (m.latency.count() > 0) {
    for (auto& metric : latency_metrics(m.latency, "transfer", "queued and completed alone: put or get + flush"))
      r.metrics.push_back(std::move(metric));
  }
  return r;
}

}  // namespace xb
