#include "jobs/copy/copy_engine_choice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

#include "core/clock.hpp"
#include "core/pattern.hpp"
#include "core/size.hpp"

namespace xb {
namespace {

// Enough to leave the caches behind at the sizes where it matters, little enough that the choice
// costs a small share of a run (4 passes of each engine).
constexpr std::uint64_t kMaxProbeBytes = 64u << 20;
// Below this a pass is mostly in cache and per-copy overhead, where memcpy is the method and a
// timing decides nothing but noise: a choice that flipped from run to run would rename the case
// between repetitions (compare could not match them).
constexpr std::uint64_t kMinProbeBytes = 16u << 20;
// Another engine replaces the first (the plainest) only when clearly faster, so that two engines
// alike do not trade places by noise.
constexpr double kClearlyFaster = 1.10;

}  // namespace

EngineChoice fastest_engine(const std::vector<EngineFigure>& figures, std::uint64_t block_bytes, std::uint64_t blocks) {
  auto best = std::ranges::max_element(figures, {}, &EngineFigure::bytes_per_s);
  if (best->bytes_per_s < figures.front().bytes_per_s * kClearlyFaster) best = figures.begin();
  std::string all;
  for (const auto& f : figures) all += fmt::format("{}{} {:.2f} GB/s", all.empty() ? "" : ", ", f.engine, f.bytes_per_s / 1e9);
  return {best->engine, fmt::format("{} over {} block(s) of {}: {} (--engine fixes one)",
                                    best == figures.begin() ? "the first engine, none 10% faster" : "the fastest engine",
                                    blocks, format_size(block_bytes), all)};
}

std::optional<EngineChoice> choose_copy_engine(Backend& backend, std::uint64_t block_bytes, std::uint64_t blocks) {
  const Capabilities& caps = backend.capabilities();
  if (caps.engines.size() < 2 || !caps.device_memory_in_host_ram || block_bytes == 0) return std::nullopt;
  if (block_bytes * blocks < kMinProbeBytes) return std::nullopt;
  const std::uint64_t probe_blocks = std::clamp<std::uint64_t>(kMaxProbeBytes / block_bytes, 1, blocks);
  const std::size_t bytes = block_bytes * probe_blocks;
  auto dev = backend.open_device(0);
  auto src = dev->allocate_host(bytes, true);
  auto dst = dev->allocate_host(bytes, true);
  fill_pattern({static_cast<std::byte*>(src->data()), bytes}, 1, 0);
  std::fill_n(static_cast<std::byte*>(dst->data()), bytes, std::byte{0});  // its pages touched before the first pass
  auto* s = static_cast<std::byte*>(src->data());
  auto* d = static_cast<std::byte*>(dst->data());
  std::vector<EngineFigure> figures;
  for (const auto& engine : caps.engines) {
    auto stream = dev->create_stream(engine);
    std::uint64_t best_ns = 0;
    for (int pass = -1; pass < 3; ++pass) {
      const std::uint64_t t0 = now_ns();
      for (std::uint64_t b = 0; b < probe_blocks; ++b) stream->copy({d + b * block_bytes, s + b * block_bytes, block_bytes});
      stream->synchronize();
      const std::uint64_t ns = now_ns() - t0;
      if (pass >= 0 && (best_ns == 0 || ns < best_ns)) best_ns = ns;
    }
    figures.push_back({engine, static_cast<double>(bytes) / (static_cast<double>(std::max<std::uint64_t>(best_ns, 1)) / 1e9)});
  }
  return fastest_engine(figures, block_bytes, probe_blocks);
}

}  // namespace xb
