#include "jobs/endpoint/paired_put.hpp"

#include <vector>

#include "runtime/timed_loop.hpp"

namespace xb {

PairedPut::PairedPut(Runtime& group, Backend& backend, PutSource& source, const PairedPutPlan& plan, int partner,
                     std::string partner_name)
    : group_(group), source_(source), plan_(plan) {
  // Every rank serves first, then learns where every other rank serves.
  if (partner >= 0) {
    server_.emplace(plan.host, plan.transport, plan.token, plan.wait, plan.device, backend, exactly_the_plan(plan.size));
  }
  const std::vector<std::string> controls = group.allgather(server_ ? server_->control().to_string() : "");
  if (partner < 0) return;
  SessionOptions options;
  options.token = plan.token;
  options.wait = plan.wait;
  const SocketAddress peer = parse_address(controls.at(static_cast<std::size_t>(partner)), partner_name, true);
  client_ = std::make_unique<ClientSession>(source.transport(), peer, options);
  remote_ = client_->expose(plan.size, RegionPlace::device);
}

void PairedPut::measure(bool sending, bool max_over_ranks, const std::function<void(double us)>& on_time) {
  Endpoint* endpoint = client_ ? &client_->endpoint() : nullptr;
  const std::uint64_t size = plan_.size;
  run_timed_loop(
      {.warmup = plan_.warmup,
       .iterations = plan_.executions,
       .max_over_ranks = max_over_ranks,
       .keep_samples = false,
       .submit_time = false},
      &group_,
      [&] {
        if (sending) endpoint->put(source_.region(), 0, *remote_.remote, 0, size);
      },
      [&] {
        if (sending) endpoint->flush(plan_.wait);
      },
      nullptr,
      [&](const IterationTimes& t) {
        if (!t.warmup) on_time(t.complete_us);
      });
}

std::optional<std::uint64_t> PairedPut::verify(std::uint64_t seed) {
  return client_->verify(remote_, 0, plan_.size, seed);
}

void PairedPut::finish() {
  if (!client_) return;
  client_->finish();
  client_.reset();
  server_->join();
}

}  // namespace xb
