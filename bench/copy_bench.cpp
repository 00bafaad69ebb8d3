// Side-by-side figures for the cpu backend's copy path (a script, not a timed test):
//  1. host->host, 64 MiB blocks, one stream, against a plain memcpy loop over the same bytes in
//     the same process, interleaved rep by rep so both see the same machine; the ratio of medians.
//  2. bandwidth of the copy job with 1, 2 and 4 streams.
//  3. submit cost per block for 16 KiB x 512 blocks.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "core/clock.hpp"
#include "core/pattern.hpp"
#include "core/stats.hpp"
#include "jobs/copy/copy_job.hpp"

namespace {

constexpr std::size_t kBlock = 64u << 20;
constexpr std::size_t kBlocks = 4;
constexpr int kReps = 25;

double median(std::vector<double> v) { return xb::summarize(v).p50; }

double gib_per_s(std::size_t bytes, double us) { return static_cast<double>(bytes) / (us / 1e6) / 1073741824.0; }

void stream_vs_memcpy() {
  auto backend = xb::make_cpu_backend();
  auto dev = backend->open_device(0);
  auto src = dev->allocate_host(kBlock * kBlocks, true);
  auto dst = dev->allocate_host(kBlock * kBlocks, true);
  xb::fill_pattern({static_cast<std::byte*>(src->data()), src->size()}, 1, 0);
  auto stream = dev->create_stream("memcpy");
  auto* s = static_cast<std::byte*>(src->data());
  auto* d = static_cast<std::byte*>(dst->data());
  std::vector<double> stream_us, memcpy_us;
  for (int rep = -2; rep < kReps; ++rep) {  // two untimed reps first
    std::uint64_t t0 = xb::now_ns();
    for (std::size_t b = 0; b < kBlocks; ++b) stream->copy({d + b * kBlock, s + b * kBlock, kBlock});
    stream->synchronize();
    std::uint64_t t1 = xb::now_ns();
    for (std::size_t b = 0; b < kBlocks; ++b) std::memcpy(d + b * kBlock, s + b * kBlock, kBlock);
    std::uint64_t t2 = xb::now_ns();
    if (rep >= 0) {
      stream_us.push_back(xb::ns_to_us(t1 - t0));
      memcpy_us.push_back(xb::ns_to_us(t2 - t1));
    }
  }
  const double bw_stream = gib_per_s(kBlock * kBlocks, median(stream_us));
  const double bw_memcpy = gib_per_s(kBlock * kBlocks, median(memcpy_us));
  fmt::print("h2h 64M x {} one stream   : cpu backend {:.2f} GiB/s, plain memcpy {:.2f} GiB/s, ratio {:.3f} "
             "(target >= 0.95; medians of {} interleaved reps)\n",
             kBlocks, bw_stream, bw_memcpy, bw_stream / bw_memcpy, kReps);
}

xb::CaseResult run_job(xb::Backend& backend, const xb::CopyPlan& plan) {
  xb::JobContext job{.backend = &backend};
  return xb::run(plan, job).front();
}

void stream_scaling(xb::Backend& backend) {
  for (int streams : {1, 2, 4}) {
    xb::CopyPlan p;
    p.direction = xb::CopyDirection::h2d;
    p.streams = streams;
    p.block_bytes = 64u << 20;
    p.blocks = 8;
    p.iterations = 10;
    p.warmup = 2;
    const auto r = run_job(backend, p);
    fmt::print("h2d 64M x 8, {} stream(s)   : {:.2f} GiB/s (copy avg {:.0f} us)\n", streams,
               r.find_metric("bandwidth")->value, r.find_series("copy")->summary.avg);
  }
}

void submit_cost(xb::Backend& backend) {
  for (bool batch : {false, true}) {
    xb::CopyPlan p;
    p.direction = xb::CopyDirection::h2d;
    p.block_bytes = 16u << 10;
    p.blocks = 512;
    p.iterations = 50;
    p.batch = batch;
    const auto r = run_job(backend, p);
    const auto& submit = r.find_series("submit")->summary;
    fmt::print("submit 16K x 512, 4 streams{}: {:.3f} us per block (submit avg {:.0f} us, p50 {:.0f} us)\n",
               batch ? ", batch " : "        ", submit.avg / 512.0, submit.avg, submit.p50);
  }
}

}  // namespace

int main() {
  auto backend = xb::make_cpu_backend();
  stream_vs_memcpy();
  stream_scaling(*backend);
  submit_cost(*backend);
}
